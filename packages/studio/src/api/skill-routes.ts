import { readJsonBody, requireString, sendJson } from "../http-json.js";
import { requireSkillsManager, skillsManagerOf } from "../plugin-services.js";
import type { Route } from "../router.js";
import type { StudioContext } from "../studio-context.js";

/** Skills: every one with its state; load and unload as a person would in a chat. */
export function skillRoutes({ agent }: StudioContext): Route[] {
  const manager = () => requireSkillsManager(agent);
  return [
    {
      method: "GET",
      path: "/api/skills",
      handle({ response }) {
        const found = skillsManagerOf(agent);
        sendJson(response, 200, {
          skills: found?.list() ?? [],
          index: found?.modelIndex() ?? null,
        });
      },
    },
    {
      method: "POST",
      path: "/api/skills/load",
      async handle({ request, response }) {
        const name = requireString(await readJsonBody(request), "name");
        const loaded = await manager().load(name, { by: "user" });
        sendJson(response, 200, loaded);
      },
    },
    {
      method: "POST",
      path: "/api/skills/unload",
      async handle({ request, response }) {
        const name = requireString(await readJsonBody(request), "name");
        sendJson(response, 200, { name, unloaded: manager().unload(name) });
      },
    },
  ];
}

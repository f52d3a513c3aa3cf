import type { JsonSchema } from "@pseudoclaude/core";
import { readJsonBody, requireString, StudioHttpError, sendJson } from "../http-json.js";
import type { Route } from "../router.js";
import type { StudioContext } from "../studio-context.js";

/** Runs started from the page: start, list, read one's events, cancel. */
export function runRoutes({ agent, runs }: StudioContext): Route[] {
  return [
    {
      method: "GET",
      path: "/api/runs",
      handle: ({ response }) =>
        sendJson(response, 200, { runs: runs.list(), running: runs.running()?.id ?? null }),
    },
    {
      method: "POST",
      path: "/api/runs",
      async handle({ request, response }) {
        const body = await readJsonBody(request);
        const prompt = requireString(body, "prompt");
        const schema = body.outputSchema;
        if (
          schema !== undefined &&
          (typeof schema !== "object" || schema === null || Array.isArray(schema))
        )
          throw new StudioHttpError(
            400,
            "invalid_output_schema",
            '"outputSchema" must be a JSON Schema object, e.g. {"type": "object", "properties": {…}}.',
          );
        if (!agent.provider)
          throw new StudioHttpError(
            409,
            "no_provider",
            "No model is set: start the studio with --provider, --model or --script (see pseudoclaude studio --help).",
          );
        const run = runs.start(prompt, schema as JsonSchema | undefined);
        sendJson(response, 202, { id: run.id, state: run.state });
      },
    },
    {
      method: "GET",
      path: "/api/runs/:id",
      handle({ response, params }) {
        const run = runs.get(params.id ?? "");
        if (!run) throw new StudioHttpError(404, "run_not_found", `There is no run ${params.id}.`);
        sendJson(response, 200, run);
      },
    },
    {
      method: "POST",
      path: "/api/runs/:id/cancel",
      handle({ response, params }) {
        const id = params.id === "current" ? undefined : params.id;
        sendJson(response, 200, { cancelled: runs.cancel(id) });
      },
    },
  ];
}

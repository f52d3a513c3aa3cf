import { readJsonBody, requireString, StudioHttpError, sendJson } from "../http-json.js";
import { mcpManagerOf, requireMcpManager } from "../plugin-services.js";
import type { Route } from "../router.js";
import type { StudioContext } from "../studio-context.js";

/** How long a read of a server's resources or prompts may take before the page is told. */
const SERVER_REQUEST_MS = 30_000;

/** MCP servers: state, era, stats, their log lines; resources and prompts browsed and read. */
export function mcpRoutes({ agent, hub }: StudioContext): Route[] {
  const manager = () => requireMcpManager(agent);
  return [
    {
      method: "GET",
      path: "/api/mcp/servers",
      handle({ response }) {
        const found = mcpManagerOf(agent);
        const diagnostics = agent.diagnostics();
        const servers = (found?.servers() ?? []).map((server) => ({
          ...server,
          // Its stderr lines, log messages and connection notes, newest last.
          log: diagnostics
            .filter((diagnostic) => diagnostic.source === `mcp:${server.name}`)
            .slice(-200),
        }));
        sendJson(response, 200, { servers });
      },
    },
    {
      method: "GET",
      path: "/api/mcp/resources",
      async handle({ response, url }) {
        const server = url.searchParams.get("server") ?? undefined;
        const cursor = url.searchParams.get("cursor") ?? undefined;
        const signal = AbortSignal.timeout(SERVER_REQUEST_MS);
        const [resources, templates] = await Promise.all([
          manager().listResources(server, cursor, signal),
          manager().listResourceTemplates(server, undefined, signal),
        ]);
        sendJson(response, 200, { ...resources, templates: templates.servers });
      },
    },
    {
      method: "GET",
      path: "/api/mcp/resource",
      async handle({ response, url }) {
        const server = url.searchParams.get("server");
        const uri = url.searchParams.get("uri");
        if (!server || !uri)
          throw new StudioHttpError(400, "invalid_request", "Give both ?server= and ?uri=.");
        const read = await manager().readResource(
          server,
          uri,
          AbortSignal.timeout(SERVER_REQUEST_MS),
        );
        sendJson(response, 200, read);
      },
    },
    {
      method: "GET",
      path: "/api/mcp/prompts",
      async handle({ response, url }) {
        const server = url.searchParams.get("server") ?? undefined;
        const listing = await manager().listPrompts(
          server,
          url.searchParams.get("cursor") ?? undefined,
          AbortSignal.timeout(SERVER_REQUEST_MS),
        );
        sendJson(response, 200, listing);
      },
    },
    {
      method: "POST",
      path: "/api/mcp/prompts/get",
      async handle({ request, response }) {
        const body = await readJsonBody(request);
        const args = (body.arguments ?? {}) as Record<string, string>;
        const prompt = await manager().getPrompt(
          requireString(body, "server"),
          requireString(body, "name"),
          args,
          AbortSignal.timeout(SERVER_REQUEST_MS),
        );
        sendJson(response, 200, prompt);
      },
    },
    {
      method: "POST",
      path: "/api/mcp/servers/:name/reconnect",
      async handle({ response, params }) {
        const report = await manager().reconnect(params.name ?? "");
        hub.publish({ type: "mcp-server", server: report });
        sendJson(response, 200, report);
      },
    },
    {
      method: "POST",
      path: "/api/mcp/servers/:name/login",
      async handle({ response, params }) {
        // The authorization URL goes to the page, which opens it; the wait ends with the login.
        const name = params.name ?? "";
        const report = await manager().login(name, {
          show: (url) => hub.publish({ type: "mcp-login", server: name, url: url.href }),
        });
        sendJson(response, 200, report);
      },
    },
  ];
}

import type { Agent, ToolDefinition } from "@pseudoclaude/core";
import { readJsonBody, requireString, StudioHttpError, sendJson } from "../http-json.js";
import { requireMcpManager } from "../plugin-services.js";
import type { Route } from "../router.js";
import type { StudioContext } from "../studio-context.js";
import { type ViewCsp, viewCsp } from "./app-view-csp.js";
import { appResourceUri } from "./tool-routes.js";

/** The MIME type of an MCP App's view (the MCP Apps extension, `io.modelcontextprotocol/ui`). */
export const MCP_APP_MIME = "text/html;profile=mcp-app";
const READ_MS = 30_000;

/**
 * MCP Apps: a tool that links a `ui://` view. The page renders the view in a sandboxed frame
 * and relays what the view asks for here: it may read its own server's resources and call its
 * own server's tools, and every call goes through `agent.callTool`, so the policy decides
 * and a side effect is approved in the page, exactly as if the model had asked.
 */
export function appRoutes({ agent, runs }: StudioContext): Route[] {
  return [
    {
      method: "GET",
      path: "/api/apps/:tool",
      async handle({ response, params }) {
        sendJson(response, 200, await readAppView(agent, params.tool ?? ""));
      },
    },
    {
      // The view as a page of its own, for the studio's frame. Its headers sandbox it even
      // when opened directly (scripts only: an opaque origin, so no cookie, no token, no reach
      // into the studio) and allow the network only where its resource declares (app-view-csp.ts):
      // otherwise the view talks to its server only through the host bridge, by postMessage
      // to the studio's page.
      method: "GET",
      path: "/apps/:tool/view",
      async handle({ response, params }) {
        const view = await readAppView(agent, params.tool ?? "");
        response.writeHead(200, {
          "content-type": "text/html; charset=utf-8",
          "cache-control": "no-store",
          "content-security-policy": view.csp.header,
          "x-content-type-options": "nosniff",
          "referrer-policy": "no-referrer",
        });
        response.end(view.html);
      },
    },
    {
      method: "POST",
      path: "/api/apps/:tool/call",
      async handle({ request, response, params }) {
        const { server } = appTool(agent, params.tool ?? "");
        const body = await readJsonBody(request);
        const remoteName = requireString(body, "name");
        // The view names its server's tool as the server knows it; only that server's tools.
        const target = agent.registry
          .definitions()
          .find((tool) => tool.meta?.server === server && tool.meta?.remote_name === remoteName);
        if (!target || target.source !== `mcp:${server}`)
          throw new StudioHttpError(
            403,
            "app_tool_refused",
            `The app of ${server} may call only ${server}'s own tools; "${remoteName}" is not one.`,
          );
        // A view's call: the kernel refuses a tool its server did not mark for apps.
        const outcome = await agent.callTool(target.name, body.arguments ?? {}, {
          fromApp: { source: target.source },
        });
        sendJson(response, 200, { tool: target.name, ...outcome });
      },
    },
    {
      // `ui/message`: the view's message, which the person confirmed in the page, becomes the
      // conversation's next prompt (the run records which view it came from).
      method: "POST",
      path: "/api/apps/:tool/message",
      async handle({ request, response, params }) {
        const { tool } = appTool(agent, params.tool ?? "");
        const text = viewText(await readJsonBody(request));
        if (text === "")
          throw new StudioHttpError(400, "empty_message", "The view's message has no text.");
        if (!agent.provider)
          throw new StudioHttpError(409, "no_provider", "No model is set to send the message to.");
        const run = runs.start(text, undefined, tool.name);
        sendJson(response, 202, { id: run.id, state: run.state });
      },
    },
    {
      // `ui/update-model-context`: what the view wants the model to know on the next turn; a
      // new update replaces the last, an empty one withdraws it.
      method: "POST",
      path: "/api/apps/:tool/context",
      async handle({ request, response, params }) {
        const { tool } = appTool(agent, params.tool ?? "");
        runs.setAppContext(tool.name, viewText(await readJsonBody(request)));
        sendJson(response, 200, {});
      },
    },
    {
      method: "POST",
      path: "/api/apps/:tool/read",
      async handle({ request, response, params }) {
        const { server } = appTool(agent, params.tool ?? "");
        const uri = requireString(await readJsonBody(request), "uri");
        const read = await requireMcpManager(agent).readResource(
          server,
          uri,
          AbortSignal.timeout(READ_MS),
        );
        sendJson(response, 200, read);
      },
    },
  ];
}

/** A view's message or context as the model reads it: its text blocks, then its structured content. */
const MAX_VIEW_TEXT = 16 * 1024;

function viewText(body: Record<string, unknown>): string {
  const blocks = Array.isArray(body.content) ? body.content : [];
  const parts = blocks
    .filter((block): block is { type: "text"; text: string } => {
      const { type, text } = (block ?? {}) as { type?: unknown; text?: unknown };
      return type === "text" && typeof text === "string";
    })
    .map((block) => block.text);
  if (body.structuredContent !== undefined)
    parts.push(JSON.stringify(body.structuredContent) ?? "");
  const text = parts.join("\n").trim();
  return text.length > MAX_VIEW_TEXT ? `${text.slice(0, MAX_VIEW_TEXT)}\n[cut]` : text;
}

/** What an app's view is: its HTML, where it comes from, and the policy it runs under. */
export interface AppView {
  tool: string;
  server: string;
  uri: string;
  mimeType: string;
  html: string;
  meta: unknown;
  /** From the resource's `_meta.ui.csp`; what was refused of it is shown beside the view. */
  csp: ViewCsp;
}

/** Read the `ui://` view a tool links, from its own server; refused unless it is HTML. */
export async function readAppView(agent: Agent, name: string): Promise<AppView> {
  const { tool, uri, server } = appTool(agent, name);
  const read = await requireMcpManager(agent).readResource(
    server,
    uri,
    AbortSignal.timeout(READ_MS),
  );
  const content = read.contents.find((item) => item.uri === uri) ?? read.contents[0];
  const html = typeof content?.text === "string" ? content.text : undefined;
  if (!content || html === undefined)
    throw new StudioHttpError(
      502,
      "app_view_unreadable",
      `${server} gave no text for ${uri}: an MCP App's view must be HTML text.`,
    );
  const mimeType = typeof content.mimeType === "string" ? content.mimeType : "";
  if (!mimeType.startsWith("text/html"))
    throw new StudioHttpError(
      502,
      "app_view_not_html",
      `${uri} is ${mimeType || "of no type"}, not ${MCP_APP_MIME}.`,
    );
  const meta = (content._meta ?? null) as { ui?: { csp?: unknown } } | null;
  return { tool: tool.name, server, uri, mimeType, html, meta, csp: viewCsp(meta?.ui?.csp) };
}

function appTool(
  agent: Agent,
  name: string,
): { tool: ToolDefinition; uri: string; server: string } {
  const tool = agent.registry.definitions().find((definition) => definition.name === name);
  const uri = tool ? appResourceUri(tool) : undefined;
  const server = tool?.meta?.server;
  if (!tool || !uri || typeof server !== "string" || tool.source !== `mcp:${server}`)
    throw new StudioHttpError(404, "not_an_app", `"${name}" is not an MCP App tool.`);
  return { tool, uri, server };
}

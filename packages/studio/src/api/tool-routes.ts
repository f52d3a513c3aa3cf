import {
  type Agent,
  type PolicyDecision,
  PolicyEngine,
  type ToolDefinition,
} from "@pseudoclaude/core";
import { readJsonBody, StudioHttpError, sendJson } from "../http-json.js";
import type { Route } from "../router.js";
import type { StudioContext } from "../studio-context.js";
import { toolSearchSummary } from "../tool-search-summary.js";

/** Every tool with what the page shows of it, and calls through the policy. */
export function toolRoutes(context: StudioContext): Route[] {
  const { agent } = context;
  return [
    {
      method: "GET",
      path: "/api/tools",
      async handle({ response }) {
        // First: deciding the offer registers the search tool when tools are deferred.
        const search = toolSearchSummary(agent.toolOffer());
        const offered = new Set(agent.offeredTools().map((tool) => tool.name));
        const diagnostics = agent.diagnostics();
        const tools = await Promise.all(
          agent.registry.definitions().map(async (tool) => ({
            name: tool.name,
            title: tool.title ?? null,
            description: tool.description,
            source: tool.source,
            safety: tool.safety,
            aliases: tool.aliases ?? [],
            icons: tool.icons ?? [],
            inputSchema: tool.inputSchema,
            annotations: tool.annotations ?? null,
            meta: tool.meta ?? {},
            appUri: appResourceUri(tool) ?? null,
            audience: tool.audience ?? ["model", "app"],
            offered: offered.has(tool.name),
            state: search.states.get(tool.name) ?? null,
            decision: await decisionFor(agent, tool),
            stats: context.stats.get(tool.name) ?? null,
            diagnostics: diagnostics.filter(
              (diagnostic) => diagnostic.item === tool.name || diagnostic.item === tool.source,
            ),
          })),
        );
        sendJson(response, 200, {
          tools,
          sources: agent.sources(),
          mode: agent.mode,
          toolSearch: search.summary,
        });
      },
    },
    {
      method: "POST",
      path: "/api/tools/:name/call",
      async handle({ request, response, params }) {
        const body = await readJsonBody(request);
        const name = params.name ?? "";
        if (!agent.registry.definitions().some((tool) => tool.name === name))
          throw new StudioHttpError(404, "unknown_tool", `There is no tool "${name}".`);
        const controller = new AbortController();
        // The page went away (closed, reloaded): the call stops, as a cancelled turn's would.
        response.on("close", () => {
          if (!response.writableFinished) controller.abort(new Error("the page went away"));
        });
        const outcome = await agent.callTool(name, body.arguments ?? {}, {
          signal: controller.signal,
        });
        sendJson(response, 200, outcome);
      },
    },
  ];
}

/** The `ui://` resource an MCP App tool links (`_meta.ui.resourceUri`), if it links one. */
export function appResourceUri(tool: ToolDefinition): string | undefined {
  const remote = tool.meta?.remote_meta as { ui?: { resourceUri?: unknown } } | undefined;
  const uri = remote?.ui?.resourceUri;
  return typeof uri === "string" && uri.startsWith("ui://") ? uri : undefined;
}

/**
 * What the policy says about calling the tool now with no arguments: rules that look at
 * arguments (a command, a path) may decide a real call differently, which the page says.
 */
async function decisionFor(
  agent: Agent,
  tool: ToolDefinition,
): Promise<Pick<PolicyDecision, "verdict" | "reason">> {
  try {
    const decision = await agent.resolve<PolicyEngine>(PolicyEngine).decide(tool, {});
    return { verdict: decision.verdict, reason: decision.reason };
  } catch (error) {
    return { verdict: "deny", reason: `the policy failed: ${(error as Error).message}` };
  }
}

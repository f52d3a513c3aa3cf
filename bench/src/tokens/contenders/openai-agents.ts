import type { FunctionTool, MCPServer, Tool } from "@openai/agents-core";
import type { ServerSpec } from "../../contender.js";
import type { TaskContender, TaskSetup } from "./task-contender.js";

/**
 * The OpenAI Agents SDK's tool search, client-executed: `toolSearchTool({ execution: "client" })`
 * beside deferred function tools (`deferLoading: true`), an `Agent` on `OpenAIResponsesModel`
 * (tool search is Responses-only) with an OpenAI client pointed at the local model, `run`.
 * The runner answers the model's `tool_search_call` itself (its built-in `{ paths }` loader) and
 * sends the loaded definitions back in a `tool_search_output` item.
 *
 * Its MCP servers (`MCPServerStdio`, connected at once with `connectMcpServers`) have no
 * deferred-loading option (only hosted MCP tools do), so each server's tools, as
 * `getAllMcpTools` converts them, are marked `deferLoading: true`, the way its Tools guide
 * defers a function tool:
 * - `openai-agents-search`: each server's tools in a `toolNamespace` named after the server,
 *   as OpenAI's tool-search guide recommends ("use namespaces where possible"): before a search
 *   the model sees each namespace's name and description only, and it loads a namespace;
 * - `openai-agents-search-flat`: every tool a top-level deferred function
 *   (`includeServerInToolNames`): the model sees each tool's name and description, and loads
 *   one tool.
 * Timeouts as in the other rows (no connect timeout, the MCP SDK's 60 s per request).
 */
export const openaiAgentsSearch: TaskContender = agents("openai-agents-search", "namespaces");
export const openaiAgentsSearchFlat: TaskContender = agents("openai-agents-search-flat", "flat");

function agents(name: string, layout: "namespaces" | "flat"): TaskContender {
  return {
    name,
    package: `@openai/agents-core@0.20.0 + @openai/agents-openai@0.20.0 (openai@7.59.0), deferred tools ${layout === "flat" ? "top-level" : "in one namespace per server"}`,
    run: (setup) => runTask(setup, layout),
  };
}

async function runTask(setup: TaskSetup, layout: "namespaces" | "flat"): Promise<void> {
  const core = await import("@openai/agents-core");
  const { OpenAIResponsesModel, toolSearchTool } = await import("@openai/agents-openai");
  const { default: OpenAI } = await import("openai");
  // Nothing leaves the machine: traces would be exported to OpenAI's API.
  core.setTracingDisabled(true);
  const created: MCPServer[] = setup.servers.map(
    (spec: ServerSpec) =>
      new core.MCPServerStdio({
        name: spec.name,
        command: spec.command!,
        args: spec.args ?? [],
        env: spec.env ?? {},
        clientSessionTimeoutSeconds: 60,
      }),
  );
  const servers = await core.connectMcpServers(created, {
    connectInParallel: true,
    connectTimeoutMs: null,
  });
  try {
    const failed = [...servers.errors].map(([server, error]) => `${server.name}: ${error.message}`);
    if (failed.length > 0) throw new Error(`could not connect ${failed.join("; ")}`);
    const runContext = new core.RunContext();
    const deferred: Tool[] = [];
    if (layout === "flat") {
      const tools = await core.getAllMcpTools({
        mcpServers: servers.active,
        runContext,
        includeServerInToolNames: true,
      });
      for (const tool of tools) deferred.push(defer(tool));
    } else {
      for (const server of servers.active) {
        const tools = await core.getAllMcpTools({ mcpServers: [server], runContext });
        deferred.push(
          ...core.toolNamespace({
            name: server.name,
            description: `Tools of the ${server.name} MCP server.`,
            tools: tools.filter(isFunction).map((tool) => defer(tool) as FunctionTool),
          }),
        );
      }
    }
    const client = new OpenAI({ baseURL: setup.baseURL, apiKey: "x" });
    const agent = new core.Agent({
      name: "bench",
      instructions: setup.system,
      model: new OpenAIResponsesModel(client, "bench"),
      tools: [...deferred, toolSearchTool({ execution: "client" })],
    });
    await core.run(agent, setup.prompt, { maxTurns: setup.maxSteps });
  } finally {
    await servers.close();
    await Promise.allSettled(created.map((server) => server.close()));
  }
}

function isFunction(tool: Tool): tool is FunctionTool {
  return tool.type === "function";
}

/** The tool, deferred until a search loads it (its Tools guide: `deferLoading: true`). */
function defer(tool: Tool): Tool {
  return tool.type === "function" ? { ...tool, deferLoading: true } : tool;
}

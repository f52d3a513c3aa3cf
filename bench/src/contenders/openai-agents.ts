import type { FunctionTool, MCPServer, RunContext } from "@openai/agents-core";
import type { Connected, Contender, ServerSpec } from "../contender.js";
import { resultText } from "../contender.js";

/**
 * The OpenAI Agents SDK as its MCP docs show it: `MCPServerStdio` / `MCPServerStreamableHttp`
 * per server, `connectMcpServers(servers, { connectInParallel: true })`, then
 * `getAllMcpTools({ mcpServers: active, runContext, includeServerInToolNames: true })`, the
 * FunctionTools an Agent's run hands the model. A call is what the runner does for a model's
 * function call: `tool.invoke(runContext, JSON.stringify(args), { toolCall })`.
 * Two defaults changed, each because it makes the benchmark impossible, not to speed it up:
 * - `includeServerInToolNames: true` (the documented `mcpConfig` option): by default two
 *   servers with a tool of the same name make `getAllMcpTools` throw "Duplicate tool names".
 * - timeouts: `connectMcpServers` gives up on a server after 10 s and each request after 5 s
 *   (`clientSessionTimeoutSeconds`); 30 stdio servers (60 processes: the MCP client probes each
 *   on a disposable sibling first) take longer than that on a small machine, and every one of
 *   them is dropped. No connect timeout, and the MCP SDK's 60 s per request, as the raw SDK has.
 */
export const openaiAgents: Contender = {
  name: "openai-agents",
  package: "@openai/agents-core@0.20.0",
  async load() {
    await import("@openai/agents-core");
  },
  async connect(servers) {
    const {
      MCPServerStdio,
      MCPServerStreamableHttp,
      RunContext,
      connectMcpServers,
      getAllMcpTools,
    } = await import("@openai/agents-core");
    const created: MCPServer[] = servers.map((spec) =>
      serverFor(spec, MCPServerStdio, MCPServerStreamableHttp),
    );
    const mcpServers = await connectMcpServers(created, {
      connectInParallel: true,
      connectTimeoutMs: null,
    });
    const byName = new Map<string, FunctionTool>();
    const runContext: RunContext = new RunContext();
    try {
      const failed = [...mcpServers.errors].map(
        ([server, error]) => `${server.name}: ${error.message}`,
      );
      if (failed.length > 0)
        throw new Error(`openai-agents could not connect ${failed.join("; ")}`);
      const tools = await getAllMcpTools({
        mcpServers: mcpServers.active,
        runContext,
        includeServerInToolNames: true,
      });
      for (const tool of tools) if (tool.type === "function") byName.set(tool.name, tool);
    } catch (error) {
      // Failed servers are dropped from `active`, not closed: close every one started.
      await mcpServers.close();
      await Promise.allSettled(created.map((server) => server.close()));
      throw error;
    }
    let calls = 0;
    const connected: Connected = {
      async call(server, tool, args) {
        const found = byName.get(prefixedName(server, tool));
        if (!found) throw new Error(`no tool ${prefixedName(server, tool)}`);
        const input = JSON.stringify(args);
        const callId = `call_${++calls}`;
        const result = await found.invoke(runContext, input, {
          toolCall: { type: "function_call", callId, name: found.name, arguments: input },
        });
        return resultText(result);
      },
      toolCount: () => byName.size,
      close: () => mcpServers.close(),
    };
    return connected;
  },
};

/** The MCP SDK's own default request timeout (60 s), in place of the Agents SDK's 5 s. */
const REQUEST_TIMEOUT_S = 60;

function serverFor(
  spec: ServerSpec,
  Stdio: typeof import("@openai/agents-core").MCPServerStdio,
  Http: typeof import("@openai/agents-core").MCPServerStreamableHttp,
): MCPServer {
  const timeouts = { clientSessionTimeoutSeconds: REQUEST_TIMEOUT_S };
  if (spec.transport === "http") return new Http({ name: spec.name, url: spec.url!, ...timeouts });
  return new Stdio({
    name: spec.name,
    command: spec.command!,
    args: spec.args ?? [],
    env: spec.env ?? {},
    ...timeouts,
  });
}

/**
 * The name `includeServerInToolNames` gives: `mcp_<server>__<tool>`, each part reduced to
 * [A-Za-z0-9_-], then every other character made `_` (the SDK hashes names over 64 characters
 * or colliding ones; the benchmark's names are short and distinct).
 */
function prefixedName(server: string, tool: string): string {
  const part = (value: string) =>
    Array.from(value)
      .map((char) => (/[A-Za-z0-9_-]/.test(char) ? char : "_"))
      .join("")
      .replace(/^[_-]+|[_-]+$/g, "");
  return `mcp_${part(server)}__${part(tool)}`.replace(/[^a-zA-Z0-9]/g, "_");
}

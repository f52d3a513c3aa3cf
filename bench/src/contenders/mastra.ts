import type { MCPClient } from "@mastra/mcp";
import type { Connected, Contender, ServerSpec } from "../contender.js";
import { resultText } from "../contender.js";

type MastraTool = Awaited<ReturnType<MCPClient["listTools"]>>[string];

let instances = 0;

/**
 * Mastra as its MCP docs show it: one `new MCPClient({ id, servers })` (stdio
 * `{ command, args, env }`, Streamable HTTP `{ url: new URL(...) }`), then
 * `await mcp.listTools()`, the record `new Agent({ tools })` takes, named
 * `serverName_toolName`. A call is the tool's `execute(inputData, context)` with the
 * agent-call context (toolCallId, messages), which validates the input and calls the server.
 * A unique `id` per client: Mastra refuses two clients with one configuration in a process.
 */
export const mastra: Contender = {
  name: "mastra",
  package: "@mastra/mcp@2.0.0",
  async load() {
    await import("@mastra/mcp");
  },
  async connect(servers) {
    const { MCPClient } = await import("@mastra/mcp");
    const mcp = new MCPClient({
      id: `bench-${process.pid}-${++instances}`,
      servers: Object.fromEntries(servers.map((spec) => [spec.name, entry(spec)])),
    });
    let tools: Record<string, MastraTool>;
    try {
      tools = await mcp.listTools();
      // listTools logs and skips a server that fails; a benchmark must not run without it.
      const names = Object.keys(tools);
      const missing = servers.filter(
        (spec) => !names.some((name) => name.startsWith(`${spec.name}_`)),
      );
      if (missing.length > 0)
        throw new Error(
          `mastra listed no tools for ${missing.map((spec) => spec.name).join(", ")}`,
        );
    } catch (error) {
      await mcp.disconnect();
      throw error;
    }
    let calls = 0;
    const connected: Connected = {
      async call(server, tool, args) {
        const found = tools[`${server}_${tool}`];
        if (!found?.execute) throw new Error(`no tool ${server}_${tool}`);
        const context = { toolCallId: `call_${++calls}`, messages: [] };
        const result: unknown = await found.execute(args, context as never);
        if (isValidationError(result)) throw new Error(result.message);
        return resultText(result);
      },
      toolCount: () => Object.keys(tools).length,
      close: () => mcp.disconnect(),
    };
    return connected;
  },
};

function entry(spec: ServerSpec) {
  if (spec.transport === "http") return { url: new URL(spec.url!) };
  return { command: spec.command!, args: spec.args ?? [], env: spec.env ?? {} };
}

/** Mastra's `execute` resolves with `{ error: true, message }` for input it rejects. */
function isValidationError(value: unknown): value is { error: true; message: string } {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { error?: unknown }).error === true &&
    typeof (value as { message?: unknown }).message === "string"
  );
}

import type { Agent } from "@pseudoclaude/core";
import type { McpServerOptions } from "@pseudoclaude/plugin-mcp";
import type { Connected, Contender, ServerSpec } from "../contender.js";
import { resultText } from "../contender.js";

/**
 * Our framework as a new user composes it: `createAgent({ plugins: [mcp({ servers })] })`,
 * then `agent.callTool` - the whole call path (policy, validation, one timeout, conversion,
 * events). Bypass mode: the benchmark measures the path, not an approval prompt.
 */
export const pseudoclaude: Contender = {
  name: "pseudoclaude",
  package: "@pseudoclaude/core@0.1.0 + @pseudoclaude/plugin-mcp@0.1.0",
  async load() {
    await Promise.all([import("@pseudoclaude/core"), import("@pseudoclaude/plugin-mcp")]);
  },
  async connect(servers) {
    const [{ createAgent }, { mcp }] = await Promise.all([
      import("@pseudoclaude/core"),
      import("@pseudoclaude/plugin-mcp"),
    ]);
    const agent: Agent = await createAgent({
      config: false,
      policy: { mode: "bypass" },
      plugins: [
        mcp({ servers: Object.fromEntries(servers.map((spec) => [spec.name, entry(spec)])) }),
      ],
    });
    const connected: Connected = {
      async call(server, tool, args) {
        const { result } = await agent.callTool(`mcp__${server}__${tool}`, args);
        if (!result.ok) throw new Error(result.error.message);
        return resultText(result.content);
      },
      toolCount: () => agent.registry.list().length,
      close: () => agent.close(),
    };
    return connected;
  },
};

function entry(spec: ServerSpec): McpServerOptions {
  if (spec.transport === "http") {
    if (!spec.url) throw new Error(`Server ${spec.name} is http but has no url.`);
    return { type: "http", url: spec.url };
  }
  if (!spec.command) throw new Error(`Server ${spec.name} is stdio but has no command.`);
  return { type: "stdio", command: spec.command, args: spec.args ?? [], env: spec.env ?? {} };
}

import type { TaskContender } from "./task-contender.js";

let instances = 0;

/**
 * Mastra's `ToolSearchProcessor` as its reference shows it: the MCP tools (`MCPClient`'s
 * `listTools()`, one stdio entry per server) given to the processor as its searchable `tools`,
 * the processor in the agent's `inputProcessors`, the agent itself given no tools. The model
 * sees `search_tools` and `load_tool`: it searches, loads a tool by the name the search gave,
 * then calls it (the default; `search.autoLoad` would skip the load step). The model is
 * Mastra's OpenAI-compatible config (`{ id, url, apiKey }`) pointed at the local model;
 * `agent.generate(prompt, { maxSteps })`.
 */
export const mastraSearch: TaskContender = {
  name: "mastra-search",
  package: "@mastra/core@1.71.0 + @mastra/mcp@2.0.0",
  async run(setup) {
    const [{ MCPClient }, { Agent }, { ToolSearchProcessor }] = await Promise.all([
      import("@mastra/mcp"),
      import("@mastra/core/agent"),
      import("@mastra/core/processors"),
    ]);
    const mcp = new MCPClient({
      // Mastra refuses two clients with one configuration in a process.
      id: `bench-tokens-${process.pid}-${++instances}`,
      servers: Object.fromEntries(
        setup.servers.map((spec) => [
          spec.name,
          { command: spec.command!, args: spec.args ?? [], env: spec.env ?? {} },
        ]),
      ),
    });
    try {
      const tools = await mcp.listTools();
      const listed = Object.keys(tools);
      const missing = setup.servers.filter(
        (spec) => !listed.some((name) => name.startsWith(`${spec.name}_`)),
      );
      if (missing.length > 0)
        throw new Error(`mastra listed no tools for ${missing.map((s) => s.name).join(", ")}`);
      const agent = new Agent({
        id: "bench",
        name: "bench",
        instructions: setup.system,
        model: { id: "openai/bench", url: setup.baseURL, apiKey: "x" },
        inputProcessors: [new ToolSearchProcessor({ tools })],
      });
      await agent.generate(setup.prompt, { maxSteps: setup.maxSteps });
    } finally {
      await mcp.disconnect();
    }
  },
};

import type { MCPClient } from "@ai-sdk/mcp";
import type { ToolSet } from "ai";
import type { TaskContender } from "./task-contender.js";

/**
 * The Vercel AI SDK's tool search as its Tool Search guide shows it: `toolSearch()` beside the
 * tools, each MCP tool from `client.tools()` given `deferLoading: true` ("MCP client tools work
 * too"), `generateText({ model, system, prompt, tools, stopWhen })`. The model sees the search
 * tool; what a search finds is added to the tool list from the next step. One
 * `createMCPClient` per server (it has no multi-server helper), connected at once; each tool
 * keyed `<server>_<tool>`, because servers share tool names (GitHub's and GitLab's
 * `create_issue`) and a plain merge of the tool sets would drop all but one. The model is
 * `@ai-sdk/openai` pointed at the local server (its default, the Responses API).
 */
export const aiSdkSearch: TaskContender = {
  name: "ai-sdk-search",
  package: "ai@7.0.185 + @ai-sdk/openai@4.0.126 + @ai-sdk/mcp@2.0.99",
  async run(setup) {
    const [{ generateText, isStepCount, toolSearch }, { createOpenAI }, { createMCPClient }] =
      await Promise.all([import("ai"), import("@ai-sdk/openai"), import("@ai-sdk/mcp")]);
    const { StdioMCPTransport } = await import("@ai-sdk/mcp/mcp-stdio");
    const clients: MCPClient[] = [];
    try {
      const sets = await Promise.all(
        setup.servers.map(async (spec) => {
          const client = await createMCPClient({
            transport: new StdioMCPTransport({
              command: spec.command!,
              args: spec.args ?? [],
              env: spec.env ?? {},
            }),
          });
          clients.push(client);
          return { server: spec.name, tools: await client.tools() };
        }),
      );
      // Merged in the servers' order, not the order they connected in: its search ranks equal
      // scores by registration order, so the same servers give the same results every run.
      const tools: ToolSet = {};
      // Two copies of the AI SDK's provider utilities (ai's and @ai-sdk/mcp's) type one
      // schema twice; the objects are the same at run time.
      for (const set of sets)
        for (const [name, tool] of Object.entries(set.tools))
          tools[`${set.server}_${name}`] = { ...tool, deferLoading: true } as ToolSet[string];
      const provider = createOpenAI({ baseURL: setup.baseURL, apiKey: "x" });
      await generateText({
        model: provider("bench"),
        system: setup.system,
        prompt: setup.prompt,
        tools: { search: toolSearch(), ...tools },
        stopWhen: isStepCount(setup.maxSteps),
      });
    } finally {
      await Promise.allSettled(clients.map((client) => client.close()));
    }
  },
};

import type { McpServerOptions } from "@pseudoclaude/plugin-mcp";
import type { ServerSpec } from "../../contender.js";
import { type TaskContender, Unable } from "./task-contender.js";

type ToolSearchMode = "always" | "never";

/** Ours with every tool definition on every request: the row's baseline. */
export const pseudoclaudeAll: TaskContender = ours("pseudoclaude-all", "never");

/** Ours with tool search on: MCP tools deferred, found through our `tool_search` tool. */
export const pseudoclaudeSearch: TaskContender = ours("pseudoclaude-search", "always");

/**
 * Ours with tool search on the Responses API and OpenAI's hosted `tool_search`: the MCP tools
 * sent deferred in one namespace per server. The provider's `toolSearch: "auto"` picks the
 * hosted search against OpenAI's own endpoint only, so this contender asks for it
 * (`"hosted"`): the local model server stands in for OpenAI and runs the search itself.
 */
export const pseudoclaudeSearchHosted: TaskContender = ours(
  "pseudoclaude-search-hosted",
  "always",
  "responses",
);

/**
 * Our framework as a user composes it: `createAgent` with the MCP plugin (one stdio entry per
 * server), the OpenAI provider pointed at the local model, no config files, then `run`.
 * `toolSearch` says whether tools are deferred; bypass mode, as in every row: the task, not an
 * approval prompt, is measured.
 */
function ours(
  name: string,
  toolSearch: ToolSearchMode,
  api: "chat" | "responses" = "chat",
): TaskContender {
  return {
    name,
    package: `@pseudoclaude/core@0.1.0 + @pseudoclaude/plugin-mcp@0.1.0 + @pseudoclaude/provider-openai@0.1.0 (${api === "chat" ? "Chat Completions" : 'Responses API, toolSearch: "hosted"'}), toolSearch: "${toolSearch}"`,
    async run(setup) {
      const [{ createAgent }, { mcp }, { openai }] = await Promise.all([
        import("@pseudoclaude/core"),
        import("@pseudoclaude/plugin-mcp"),
        import("@pseudoclaude/provider-openai"),
      ]);
      const options = {
        config: false as const,
        policy: { mode: "bypass" as const },
        provider: openai({
          baseURL: setup.baseURL,
          apiKey: "x",
          model: "bench",
          api,
          ...(api === "responses" ? { toolSearch: "hosted" as const } : {}),
        }),
        plugins: [
          mcp({
            servers: Object.fromEntries(setup.servers.map((spec) => [spec.name, entry(spec)])),
          }),
        ],
        systemPrompt: setup.system,
        maxTurns: setup.maxSteps,
        toolSearch,
      };
      let agent: Awaited<ReturnType<typeof createAgent>>;
      try {
        // Typed through `Parameters`, so this compiles against a core without the option yet.
        agent = await createAgent(options as Parameters<typeof createAgent>[0]);
      } catch (error) {
        if (/toolSearch/.test(String((error as Error)?.message)))
          throw new Unable(`createAgent refused toolSearch: ${(error as Error).message}`);
        throw error;
      }
      try {
        await agent.run(setup.prompt);
        // Our search tool joins the registry the first time a request defers a tool: a core
        // that ignores the option ran with every tool loaded, which is not this contender.
        // (The provider's own search needs no tool of ours.)
        if (
          toolSearch !== "never" &&
          api === "chat" &&
          !agent.registry.list().some((tool) => tool.definition.name === "tool_search")
        )
          throw new Unable(
            "this build of @pseudoclaude/core has no createAgent({ toolSearch }) yet (no tool_search tool was offered; every tool was sent)",
          );
      } finally {
        await agent.close();
      }
    },
  };
}

function entry(spec: ServerSpec): McpServerOptions {
  return { type: "stdio", command: spec.command!, args: spec.args ?? [], env: spec.env ?? {} };
}

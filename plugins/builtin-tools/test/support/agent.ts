// A real agent with only the built-in tools, on a temporary workspace, for tool tests.
import {
  type Agent,
  type CreateAgentOptions,
  createAgent,
  LoadedConfig,
  type ToolResult,
} from "@pseudoclaude/core";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { type BuiltinToolsOptions, builtinTools } from "../../src/index.js";

export interface ToolHarness {
  workspace: TempWorkspace;
  agent: Agent;
  /** Call a tool through policy (bypass unless `agent` options say otherwise) and registry. */
  call(
    name: string,
    args: unknown,
    options?: { timeoutMs?: number; signal?: AbortSignal },
  ): Promise<ToolResult>;
}

export interface HarnessOptions {
  plugin?: BuiltinToolsOptions;
  agent?: Partial<CreateAgentOptions>;
  /** Project config YAML. */
  project?: string;
  /** Prepare files before the agent starts. */
  setup?: (workspace: TempWorkspace) => Promise<void>;
}

/** Run `body` with a fresh workspace and agent; both are always cleaned up. */
export async function withTools(
  options: HarnessOptions,
  body: (harness: ToolHarness) => Promise<void>,
): Promise<void> {
  const workspace = await createTempWorkspace("pseudoclaude-builtin-");
  try {
    await options.setup?.(workspace);
    const agent = await createAgent({
      workspace: workspace.root,
      plugins: [builtinTools(options.plugin)],
      config:
        options.project === undefined
          ? false
          : LoadedConfig.fromTexts({ project: options.project }),
      policy: { mode: "bypass" },
      ...options.agent,
    });
    try {
      await body({
        workspace,
        agent,
        call: async (name, args, callOptions = {}) =>
          (await agent.callTool(name, args, { timeoutMs: 30_000, ...callOptions })).result,
      });
    } finally {
      await agent.close();
    }
  } finally {
    await workspace.cleanup();
  }
}

/** The text of a result's blocks. */
export function textOf(result: ToolResult): string {
  return result.content
    .map((block) => (block.type === "text" ? block.text : `[${block.type}]`))
    .join("\n");
}

/** The result as a readable message for assertion failures. */
export function show(result: ToolResult): string {
  return JSON.stringify({ ok: result.ok, error: result.error, text: textOf(result) }, null, 2);
}

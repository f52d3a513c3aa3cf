/** What each contender of the code-mode token row gets: the same model, workspace and prompts. */
export interface ChainedSetup {
  /** The local model's OpenAI-style base URL (`http://127.0.0.1:<port>/v1`). */
  baseURL: string;
  /** A fresh folder holding the task's notes; the summary is written here. */
  workspace: string;
  system: string;
  prompt: string;
  /** Model requests a run may make at most. */
  maxSteps: number;
}

/** A way of running the chained task against the local model. */
export interface ChainedContender {
  readonly name: string;
  /** The packages measured, with exact versions, and how they were set up. */
  readonly package: string;
  /** Runs the task to the model's final answer and closes everything it started. */
  run(setup: ChainedSetup): Promise<void>;
}

/**
 * Program calls the code-mode contender allows: the task makes 52 (one listing, fifty reads,
 * one write), past the sandbox's default of 50.
 */
export const CHAINED_MAX_CALLS = 64;

/**
 * Ours as a user composes it: `createAgent` with the built-in tools, the OpenAI provider (Chat
 * Completions, streaming) pointed at the local model, no config files, bypass mode (the task's
 * tokens are measured, not an approval prompt), then `run`; with code mode, `codeMode()` too,
 * so the model is offered the built-in tools and `code_mode`, as a user who turns it on gets.
 */
function ours(name: string, withCodeMode: boolean): ChainedContender {
  return {
    name,
    package: `@pseudoclaude/core@0.1.0 + @pseudoclaude/plugin-builtin-tools@0.1.0 + @pseudoclaude/provider-openai@0.1.0 (Chat Completions)${withCodeMode ? ` + @pseudoclaude/plugin-code-mode@0.1.0 (codeMode({ limits: { maxCalls: ${CHAINED_MAX_CALLS} } }))` : ", tools called one by one"}`,
    async run(setup) {
      const [{ createAgent }, { builtinTools }, { openai }, { codeMode }] = await Promise.all([
        import("@pseudoclaude/core"),
        import("@pseudoclaude/plugin-builtin-tools"),
        import("@pseudoclaude/provider-openai"),
        import("@pseudoclaude/plugin-code-mode"),
      ]);
      const agent = await createAgent({
        config: false,
        workspace: setup.workspace,
        policy: { mode: "bypass" },
        provider: openai({ baseURL: setup.baseURL, apiKey: "x", model: "bench" }),
        plugins: [
          builtinTools(),
          ...(withCodeMode ? [codeMode({ limits: { maxCalls: CHAINED_MAX_CALLS } })] : []),
        ],
        systemPrompt: setup.system,
        maxTurns: setup.maxSteps,
      });
      try {
        await agent.run(setup.prompt);
      } finally {
        await agent.close();
      }
    },
  };
}

/** Ours calling the tools one by one: the row's baseline. */
export const pseudoclaudeClassic: ChainedContender = ours("pseudoclaude-classic", false);

/** Ours with code mode: one program does the task. */
export const pseudoclaudeCodeMode: ChainedContender = ours("pseudoclaude-code-mode", true);

/** The row's contenders by name. */
export const CHAINED_CONTENDERS: Readonly<Record<string, ChainedContender>> = Object.fromEntries(
  [pseudoclaudeClassic, pseudoclaudeCodeMode].map((c) => [c.name, c]),
);

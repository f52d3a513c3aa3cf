import { optionKeys } from "@pseudoclaude/core/plugin";

/** Limits and roots every built-in tool works within, after config layers and code combine. */
export interface BuiltinToolsSettings {
  /** Extra directories besides the workspace that paths may lead into (absolute, real). */
  extraRoots: string[];
  /** Cap on the text any one tool returns; longer output is cut with a note saying so. */
  maxOutputChars: number;
  /** `run_command`'s own timeout (the `tool` level of the one effective timeout). */
  commandTimeoutMs?: number;
  /** Shell that runs commands as `SHELL -c COMMAND`. */
  shell: string;
  /** Time a command's process group gets between SIGTERM and SIGKILL. */
  killGraceMs: number;
  /** Variables set for every command, over this process's environment (absent: none). */
  env?: Record<string, string>;
}

/** What `builtinTools({...})` accepts in code. It beats the config files, roots add up. */
export interface BuiltinToolsOptions {
  /** Absolute, or relative to the workspace. */
  extraRoots?: string[] | undefined;
  maxOutputChars?: number | undefined;
  commandTimeoutMs?: number | undefined;
  shell?: string | undefined;
  /**
   * Default 400 ms: short enough that a command ignoring SIGTERM is killed and reported within
   * the registry's default 1 s grace after a timeout.
   */
  killGraceMs?: number | undefined;
}

/** Every key of {@link BuiltinToolsOptions}: another one passed in code is a mistake. */
export const BUILTIN_TOOLS_OPTION_KEYS = optionKeys<BuiltinToolsOptions>()([
  "extraRoots",
  "maxOutputChars",
  "commandTimeoutMs",
  "shell",
  "killGraceMs",
]);

export const DEFAULT_MAX_OUTPUT_CHARS = 30_000;
export const DEFAULT_SHELL = "/bin/sh";
export const DEFAULT_KILL_GRACE_MS = 400;

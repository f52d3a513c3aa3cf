import type { LoadedConfig } from "@pseudoclaude/core";
import type { CliFlags } from "../cli-options.js";
import { BASE_SYSTEM_PROMPT } from "./base-prompt.js";

/** The system prompt a command's agent starts from, and whether the environment follows it. */
export interface SystemPromptChoice {
  /** The base and anything appended to it: `createAgent`'s `systemPrompt`. */
  text: string;
  /**
   * The base is ours: the environment's facts follow it as a section. A base of the user's own
   * replaces all of ours, facts included, as Claude Code's `--system-prompt` does.
   */
  environment: boolean;
}

/**
 * `--system-prompt TEXT` replaces the base, else the user's `agent.system_prompt`, else ours;
 * `--append-system-prompt TEXT`, else the user's `agent.append_system_prompt`, comes after it.
 * Only the user's config layer counts here: a workspace's values are instruction text, which
 * the `instructions` plugin puts with the repository's `CLAUDE.md`.
 */
export function chooseSystemPrompt(flags: CliFlags, config: LoadedConfig): SystemPromptChoice {
  const user = userAgentValues(config);
  const replaced = flags["system-prompt"] ?? user.system_prompt;
  const appended = flags["append-system-prompt"] ?? user.append_system_prompt;
  const base = replaced ?? BASE_SYSTEM_PROMPT;
  const text = [base, appended]
    .filter((part): part is string => part !== undefined && part.trim() !== "")
    .join("\n\n");
  return { text, environment: replaced === undefined };
}

/** The user's own `agent.system_prompt` and `agent.append_system_prompt`, where they are text. */
function userAgentValues(config: LoadedConfig): {
  system_prompt?: string;
  append_system_prompt?: string;
} {
  const values: { system_prompt?: string; append_system_prompt?: string } = {};
  for (const entry of config.section<Record<string, unknown>>("agent")) {
    if (entry.layer !== "user" || typeof entry.value !== "object" || entry.value === null) continue;
    for (const key of ["system_prompt", "append_system_prompt"] as const) {
      const value = entry.value[key];
      if (typeof value === "string") values[key] = value;
    }
  }
  return values;
}

/** The Claude model families Claude Code's aliases name. */
export type ClaudeModelFamily = "sonnet" | "opus" | "haiku";

/**
 * Claude Code's model aliases and the family each names. `best` and `opusplan` mean Opus (the
 * plan-mode switch of `opusplan` does not exist here); `[1m]` asks for the long context window,
 * which is a setting of the provider here, not of the model's name.
 */
export const CLAUDE_CODE_MODEL_ALIASES: Readonly<Record<string, ClaudeModelFamily>> = {
  sonnet: "sonnet",
  "sonnet[1m]": "sonnet",
  opus: "opus",
  "opus[1m]": "opus",
  best: "opus",
  opusplan: "opus",
  haiku: "haiku",
};

/**
 * The model each family's alias runs on with a Claude provider: the newest of the family in the
 * Anthropic SDK's model list when this was written (Claude Code, too, moves its aliases to the
 * newest model). A parent already on a model of the family keeps its own.
 */
export const CLAUDE_MODEL_FOR_FAMILY: Readonly<Record<ClaudeModelFamily, string>> = {
  sonnet: "claude-sonnet-5-5",
  opus: "claude-opus-5-5",
  haiku: "claude-haiku-5-5",
};

/** The `model` of an agent file, as Claude Code's format means it. */
export type AgentModelChoice =
  /** No `model`, or `inherit`: the parent's model. */
  | { kind: "inherit" }
  /** One of Claude Code's aliases: a Claude family ({@link resolveAgentModel}). */
  | { kind: "alias"; alias: string; family: ClaudeModelFamily }
  /** A model id (`claude-opus-5-5`, `gpt-5.1`, `llama3.1:8b`): that model of the parent's provider. */
  | { kind: "id"; id: string }
  /** Neither (`fable`, a number): the parent's model, and the file deserves one warning. */
  | { kind: "unknown"; value: string };

// A model id is one token of letters, digits and the separators ids use (`-._:/@`), with at
// least one digit or separator: a bare word (`fable`) is a nickname no provider's API takes.
const MODEL_ID = /^[A-Za-z0-9][\w.:/@-]*$/;
const HAS_DIGIT_OR_SEPARATOR = /[\d._:/@-]/;

/**
 * What an agent file's `model` asks for. The check is by shape, because files are read before
 * (and without) a provider: a misspelt alias or a nickname is caught when the file is read,
 * instead of failing at the first call of the sub-agent with the provider's "unknown model".
 */
export function classifyAgentModel(value: unknown): AgentModelChoice {
  if (value === undefined || value === null) return { kind: "inherit" };
  if (typeof value !== "string") return { kind: "unknown", value: String(value) };
  const written = value.trim();
  const lower = written.toLowerCase();
  if (written === "" || lower === "inherit") return { kind: "inherit" };
  const family = CLAUDE_CODE_MODEL_ALIASES[lower];
  if (family) return { kind: "alias", alias: lower, family };
  if (MODEL_ID.test(written) && HAS_DIGIT_OR_SEPARATOR.test(written))
    return { kind: "id", id: written };
  return { kind: "unknown", value: written };
}

/**
 * The parent's provider, as far as choosing a model needs it: the model it runs on. Whether
 * that is Claude is read from the model (`claude-…`), not from the provider's name, so a Claude
 * model behind an OpenAI-compatible endpoint counts too.
 */
export interface ParentModel {
  model?: string | undefined;
}

/**
 * The model a sub-agent runs on, undefined for the parent's. An id is used as written. An alias
 * names a Claude family: with a parent on Claude (its model is `claude-…`) it is that family's
 * model ({@link CLAUDE_MODEL_FOR_FAMILY}), or the parent's own when that is already of the
 * family; with any other provider it is the parent's model, since another vendor's provider
 * has no Claude to switch to and the user chose its model. `inherit` and unknown values are
 * the parent's.
 */
export function resolveAgentModel(
  choice: AgentModelChoice,
  parent: ParentModel | undefined,
): string | undefined {
  switch (choice.kind) {
    case "id":
      return choice.id;
    case "alias": {
      const parentModel = parent?.model ?? "";
      if (!parentModel.startsWith("claude-")) return undefined;
      if (parentModel.includes(`-${choice.family}-`)) return undefined;
      return CLAUDE_MODEL_FOR_FAMILY[choice.family];
    }
    default:
      return undefined;
  }
}

/**
 * The Claude model a Claude Code `model` setting or `--model` names: an alias (`opus`,
 * `sonnet[1m]`, `best`) as its family's model ({@link CLAUDE_MODEL_FOR_FAMILY}), anything else
 * as written, since the Anthropic API is the judge of an id.
 */
export function claudeModelId(value: string): string {
  const family = CLAUDE_CODE_MODEL_ALIASES[value.trim().toLowerCase()];
  return family ? CLAUDE_MODEL_FOR_FAMILY[family] : value;
}

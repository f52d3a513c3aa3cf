import { createHash } from "node:crypto";

/**
 * What every model API accepts as a tool name (Anthropic Messages, OpenAI Chat and Responses
 * agree on it). Sources name their tools within it where they can, and providers map any
 * other registry name onto it, both with the functions below, so a name is made valid one way.
 */
export const VALID_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The longest valid tool name. */
export const MAX_TOOL_NAME_LENGTH = 64;

const HASH_LENGTH = 8;

/** `name` with every character a model API refuses replaced by `_` (length unchanged). */
export function sanitizeToolName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_");
}

/**
 * A valid name for `name` that stays apart from every other: the sanitized name, cut to fit,
 * then `_` and the first 8 hex digits of the SHA-256 of `seed` (the name itself unless the
 * caller needs a second, salted, candidate). Deterministic, so a name is the same in every
 * turn and every process.
 */
export function hashedToolName(name: string, seed: string = name): string {
  const hash = createHash("sha256").update(seed).digest("hex").slice(0, HASH_LENGTH);
  return `${sanitizeToolName(name).slice(0, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`;
}

/**
 * What the registry takes as a tool name: not empty, no whitespace. It is wider than
 * {@link VALID_TOOL_NAME} on purpose: a tool may be called `docs.v2.search` in code and in
 * permission rules, and each provider maps it onto the API's rule with `hashedToolName`.
 */
export function isRegistrableToolName(name: unknown): name is string {
  // No whitespace at all also means not blank (`\s` and `trim` know the same characters).
  return typeof name === "string" && name !== "" && !/\s/.test(name);
}

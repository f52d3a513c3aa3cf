import { errorMessage } from "../errors.js";
import type { ArgumentValidation, Tool } from "../tools/tool.js";

/** A tool's own validator, run so that a validator that throws is a refusal, not a crash. */
export function safeValidate(tool: Tool, args: Record<string, unknown>): ArgumentValidation {
  try {
    return tool.validate!(args);
  } catch (error) {
    return { ok: false as const, message: `validator failed: ${errorMessage(error)}` };
  }
}

/** What a value is, as an argument error names it ("an array", "a string"). */
export function describeJsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (value === undefined) return "nothing";
  return `a ${typeof value}`;
}

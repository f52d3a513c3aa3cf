import type { ArgumentValidation, Tool } from "../contracts/tool.js";
import type { ToolCall } from "../contracts/tool-call.js";
import { toolFailure } from "../contracts/tool-result.js";
import { errorMessage } from "../errors.js";
import { isPlainObject } from "../util/plain-object.js";
import { withCallMetadata } from "./call-metadata.js";
import type { CallPreparation } from "./tool-registry.js";

/**
 * The one check of a call's arguments against its tool: a JSON object, then the tool's own
 * validator (whose parsed value, defaults applied, is what the tool gets). The registry's
 * `prepare` runs it after routing; the agent runs it again, and only it, on arguments a hook
 * rewrote. A refusal is answered with where and why, and the call is never run.
 */
export function checkArguments(
  call: ToolCall,
  tool: Tool,
  started: number = performance.now(),
): Exclude<CallPreparation, { kind: "unknown" }> {
  if (!isPlainObject(call.arguments))
    return refusal(
      call,
      tool,
      `Arguments for "${call.name}" must be a JSON object, got ${describeJsonType(call.arguments)}.`,
      started,
    );
  let args = call.arguments;
  if (tool.validate) {
    const validation = safeValidate(tool, args);
    if (!validation.ok)
      return refusal(
        call,
        tool,
        `Invalid arguments for "${call.name}": ${validation.message}`,
        started,
      );
    args = validation.value ?? args;
  }
  return {
    kind: "ready",
    prepared: { call, tool, source: tool.definition.source, arguments: args },
  };
}

function refusal(
  call: ToolCall,
  tool: Tool,
  message: string,
  started: number,
): { kind: "invalid"; tool: Tool; result: ReturnType<typeof toolFailure> } {
  const source = tool.definition.source;
  return {
    kind: "invalid",
    tool,
    result: withCallMetadata(
      toolFailure("invalid_arguments", message),
      { tool: call.name, callId: call.id, source },
      started,
    ),
  };
}

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

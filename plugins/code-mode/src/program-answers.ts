import type { ToolResult } from "@pseudoclaude/core";
import type { InnerCallOutcome } from "@pseudoclaude/core/plugin";
import type { CallAnswer } from "./sandbox/index.js";

/**
 * What a program gets back from one inner call. The structured result of a tool that declares
 * its shape (an MCP tool's `outputSchema`, which its declaration shows) arrives as the object it
 * is; otherwise a single text block arrives as its string, anything else (images, several
 * blocks) as the content blocks (a built-in tool's structured side data is not its answer); a failure (a denial too) as a thrown `ToolError` with the kernel's code. The
 * program's clock moves by each call's duration, read from the call's result, which a durable
 * run journals with it: a replay sees the same times.
 */
export function toCallAnswer(
  outcome: InnerCallOutcome,
  clock: { ms: number },
  typed: boolean,
): CallAnswer {
  const { result } = outcome;
  const took = result.metadata.duration_ms;
  if (typeof took === "number" && Number.isFinite(took) && took > 0) clock.ms += Math.round(took);
  if (!result.ok)
    return { ok: false, code: result.error.code, message: result.error.message, atMs: clock.ms };
  return { ok: true, value: answerValue(result, typed), atMs: clock.ms };
}

function answerValue(result: ToolResult, typed: boolean): unknown {
  if (typed && result.structured !== undefined) return result.structured;
  const [first, ...rest] = result.content;
  if (first?.type === "text" && rest.length === 0) return first.text;
  if (result.content.length === 0) return null;
  return result.content;
}

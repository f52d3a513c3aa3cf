import type { RunSpan } from "../tracing/agent-tracer.js";

/**
 * Where a batch of tool calls comes from: a model turn of a run, or a direct `callTool` that
 * no model reads. Only a turn's results are adapted for the model and join the conversation.
 */
export type CallOrigin =
  | { kind: "turn"; turn: number; run: RunSpan }
  | { kind: "direct" }
  /** A call a tool made through `ToolExecutionContext.inner` (a program's), in a turn's call. */
  | { kind: "inner"; turn: number }
  /** A direct call on behalf of a view (an MCP App) of `source`: only its source's app tools. */
  | { kind: "app"; source: string };

/** The origin of every direct call: there is one, so it is not made per call. */
export const DIRECT_CALL: CallOrigin = { kind: "direct" };

/** The turn number events and records carry: a direct call (a view's too) is numbered 0. */
export function turnNumber(origin: CallOrigin): number {
  return origin.kind === "turn" || origin.kind === "inner" ? origin.turn : 0;
}

import type { ToolResult } from "../types.js";
import type { CallItem } from "./timeline-model.js";

/**
 * The call a view shows, as far as it has come: the model's arguments while they stream
 * (`partialText`, the JSON so far), then complete (`input`), then the result, or why it was
 * cancelled. What the view is told of it is app-teller.ts's, loaded with the first view.
 */
export interface AppCall {
  /** Which call; a new id is a new call for the same view. */
  id: string;
  partialText?: string | undefined;
  input?: Record<string, unknown> | undefined;
  result?: ToolResult | undefined;
  /** Set when the call will have no result: refused, failed before running, or stopped. */
  cancelled?: string | undefined;
}

/**
 * A run's call as its view is told it: the arguments as far as the model wrote them, the
 * complete ones, the result of a call that ran; a call that never ran (refused, or the
 * run ended first) is cancelled with the reason.
 */
export function viewCall(item: CallItem, runEnded: boolean): AppCall {
  const call: AppCall = { id: item.id };
  if (item.arguments !== undefined) call.input = objectOr(item.arguments);
  else if (item.inputText) call.partialText = item.inputText;
  const ran = item.durationMs !== undefined;
  if (ran && item.result) call.result = item.result;
  else if (item.result || item.verdict === "deny")
    call.cancelled = item.reason ?? item.result?.error?.message ?? "the call did not run";
  else if (runEnded) call.cancelled = "the run ended before the call finished";
  return call;
}

/** The arguments as an object (anything else: none). */
export function objectOr(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

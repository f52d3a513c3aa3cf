import type { AppBridge } from "@modelcontextprotocol/ext-apps/app-bridge";
import { parse as parsePartialJson } from "partial-json";
import type { ToolResult } from "../types.js";
import type { CallItem } from "./timeline-model.js";

/**
 * The call a view shows, as far as it has come: the model's arguments while they stream
 * (`partial`), then complete (`input`), then the result, or why it was cancelled.
 */
export interface AppCall {
  /** Which call; a new id is a new call for the same view. */
  id: string;
  partial?: Record<string, unknown> | undefined;
  input?: Record<string, unknown> | undefined;
  result?: ToolResult | undefined;
  /** Set when the call will have no result: refused, failed before running, or stopped. */
  cancelled?: string | undefined;
}

/**
 * A run's call as its view is told it: the arguments parsed as far as the model wrote them,
 * the complete ones, the result of a call that ran; a call that never ran (refused, or the
 * run ended first) is cancelled with the reason.
 */
export function viewCall(item: CallItem, runEnded: boolean): AppCall {
  const call: AppCall = { id: item.id };
  if (item.arguments !== undefined) call.input = objectOr(item.arguments);
  else if (item.inputText) call.partial = partialInput(item.inputText);
  const ran = item.durationMs !== undefined;
  if (ran && item.result) call.result = item.result;
  else if (item.result || item.verdict === "deny")
    call.cancelled = item.reason ?? item.result?.error?.message ?? "the call did not run";
  else if (runEnded) call.cancelled = "the run ended before the call finished";
  return call;
}

/** Arguments cut off mid-way, read as far as they go (a string cut off is kept as far as it came). */
function partialInput(text: string): Record<string, unknown> | undefined {
  try {
    return objectOr(parsePartialJson(text));
  } catch {
    return undefined;
  }
}

function objectOr(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** What of a call the view was already told. */
interface Told {
  id: string;
  partial: string;
  input: boolean;
  result: ToolResult | undefined;
  cancelled: boolean;
}

/**
 * Tells a view about its call in the extension's order: partial input (repeatable, only until
 * the complete input), the complete input once, then the result or the cancellation once.
 * Nothing is sent before the view said it is initialized; what it missed is sent then.
 */
export class CallTeller {
  private told: Told | undefined;

  constructor(private readonly host: AppBridge) {}

  tell(call: AppCall): void {
    if (!this.told || this.told.id !== call.id)
      this.told = { id: call.id, partial: "", input: false, result: undefined, cancelled: false };
    const told = this.told;
    if (!told.input && call.input === undefined && call.partial !== undefined) {
      const partial = JSON.stringify(call.partial);
      if (partial !== told.partial) {
        told.partial = partial;
        void this.host.sendToolInputPartial({ arguments: call.partial });
      }
    }
    if (!told.input && call.input !== undefined) {
      told.input = true;
      void this.host.sendToolInput({ arguments: call.input });
    }
    if (told.cancelled || told.result !== undefined) return;
    if (call.result !== undefined && told.input) {
      told.result = call.result;
      void this.host.sendToolResult(toCallToolResult(call.result));
    } else if (call.cancelled !== undefined) {
      told.cancelled = true;
      void this.host.sendToolCancelled({ reason: call.cancelled });
    }
  }
}

/** Our result as MCP's CallToolResult, the shape the view expects. */
export function toCallToolResult(result: ToolResult) {
  const content = result.ok
    ? result.content
    : [...result.content, { type: "text", text: result.error?.message ?? "failed" }];
  return {
    content,
    ...(result.structured !== undefined
      ? { structuredContent: result.structured as Record<string, unknown> }
      : {}),
    isError: !result.ok,
  } as Parameters<AppBridge["sendToolResult"]>[0];
}

import type { AppBridge } from "@modelcontextprotocol/ext-apps/app-bridge";
import { parse as parsePartialJson } from "partial-json";
import type { ToolResult } from "../types.js";
import { type AppCall, objectOr } from "./app-call.js";

/** What of a call the view was already told. */
interface Told {
  id: string;
  /** The streamed text last read, so an unchanged call is not parsed again. */
  partialText: string;
  /** The partial arguments last sent, as JSON. */
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
      this.told = {
        id: call.id,
        partialText: "",
        partial: "",
        input: false,
        result: undefined,
        cancelled: false,
      };
    const told = this.told;
    if (
      !told.input &&
      call.input === undefined &&
      call.partialText !== undefined &&
      call.partialText !== told.partialText
    ) {
      told.partialText = call.partialText;
      const partial = partialInput(call.partialText);
      const shown = JSON.stringify(partial);
      if (partial && shown !== told.partial) {
        told.partial = shown;
        void this.host.sendToolInputPartial({ arguments: partial });
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

/** Arguments cut off mid-way, read as far as they go (a string cut off is kept as far as it came). */
function partialInput(text: string): Record<string, unknown> | undefined {
  try {
    return objectOr(parsePartialJson(text));
  } catch {
    return undefined;
  }
}

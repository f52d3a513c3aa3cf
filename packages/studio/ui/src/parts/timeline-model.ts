import type { RunEvent, ToolCall, ToolResult, Usage } from "../types.js";

/** One tool call as the timeline shows it, gathered from its events. */
export interface CallItem {
  kind: "call";
  id: string;
  name: string;
  /** The complete arguments, once the call started (undefined while they stream). */
  arguments: unknown;
  /** The arguments as the model wrote them so far, from providers that stream them. */
  inputText?: string;
  turn: number;
  verdict?: string;
  reason?: string;
  approval?: string;
  waitedMs?: number;
  durationMs?: number;
  ok?: boolean;
  /** The call's result as the tool gave it (what an App's view is sent). */
  result?: ToolResult;
  summary?: string | undefined;
  hooks?: Array<{ hook: string; stage: string; action: string; reason?: string }>;
  progress?: string;
  task?: string;
  /** The sub-agent this call ran, or the calls its program made: their own timeline. */
  children: TimelineItem[];
  subAgent?: string | undefined;
}

export type TimelineItem =
  | CallItem
  | {
      kind: "turn";
      turn: number;
      tools: number;
      /** The tools whose definitions the request carried, in the order sent. */
      toolNames: string[];
      /** Estimated tokens of those definitions (absent in events of an older agent). */
      toolTokens?: number | undefined;
      /** Tools known to search only, not sent, and who searches them. */
      deferredTools: number;
      toolSearch: string;
      estimatedTokens: number;
      usage?: Usage;
      stopReason?: string;
      text: string;
    }
  | {
      kind: "compaction";
      turn: number;
      stage: string;
      tokensBefore: number;
      tokensAfter: number;
      stubbed: number;
      summarized: number;
    }
  | { kind: "repair"; turn: number; issues: number }
  /** A tool search: ours (`local`) or the provider's; `found` are the tools it loaded. */
  | { kind: "search"; turn: number; engine: string; query: string; found: string[] }
  | { kind: "error"; stage: string; message: string }
  | { kind: "end"; stopReason: string; turns: number; usage?: Usage };

/**
 * The timeline of a run from its events: turns (with the tools each offered), calls with their
 * decisions and durations, tool searches, compactions, output repairs, errors; a sub-agent's events nest under the call that ran it
 * (its events carry `via.parentCallId`), to any depth.
 */
export function buildTimeline(events: readonly RunEvent[]): TimelineItem[] {
  const byParent = new Map<string, RunEvent[]>();
  for (const event of events) {
    // A place not filled yet (an event still on its way) is skipped.
    if (!event) continue;
    // A sub-agent's events nest under the call that ran it, a program's calls under the program.
    const parent = event.via?.parentCallId ?? (event.call as ToolCall | undefined)?.parentId ?? "";
    byParent.set(parent, [...(byParent.get(parent) ?? []), event]);
  }
  return itemsOf(byParent.get("") ?? [], byParent);
}

function itemsOf(events: readonly RunEvent[], byParent: Map<string, RunEvent[]>): TimelineItem[] {
  const items: TimelineItem[] = [];
  const calls = new Map<string, CallItem>();
  const turns = new Map<number, Extract<TimelineItem, { kind: "turn" }>>();
  const callOf = (event: RunEvent): CallItem => {
    const call = event.call as ToolCall;
    let item = calls.get(call.id);
    if (!item) {
      item = {
        kind: "call",
        id: call.id,
        name: call.name,
        arguments: call.arguments,
        turn: event.turn as number,
        children: [],
      };
      const nested = byParent.get(call.id);
      if (nested) {
        item.children = itemsOf(nested, byParent);
        item.subAgent = nested[0]?.via?.agent;
      }
      calls.set(call.id, item);
      items.push(item);
    }
    return item;
  };
  for (const event of events) {
    switch (event.type) {
      case "turn-start": {
        const toolNames = event.tools as string[];
        const turn = {
          kind: "turn" as const,
          turn: event.turn as number,
          tools: toolNames.length,
          toolNames,
          toolTokens: event.toolTokens as number | undefined,
          deferredTools: (event.deferredTools as number | undefined) ?? 0,
          toolSearch: (event.toolSearch as string | undefined) ?? "none",
          estimatedTokens: event.estimatedTokens as number,
          text: "",
        };
        turns.set(turn.turn, turn);
        items.push(turn);
        break;
      }
      case "text-delta": {
        const turn = turns.get(event.turn as number);
        if (turn) turn.text += event.text as string;
        break;
      }
      case "turn-end": {
        const turn = turns.get(event.turn as number);
        if (turn) {
          turn.usage = event.usage as Usage;
          turn.stopReason = event.stopReason as string;
        }
        break;
      }
      case "tool-input-delta": {
        const streaming = { id: event.id, name: event.name, arguments: undefined };
        const item = callOf({ ...event, call: streaming });
        item.inputText = (item.inputText ?? "") + (event.delta as string);
        break;
      }
      case "tool-call-start":
        callOf(event).arguments = (event.call as ToolCall).arguments;
        break;
      case "tool-decision": {
        const item = callOf(event);
        const decision = event.decision as { verdict: string; reason: string };
        item.verdict = decision.verdict;
        item.reason = decision.reason;
        if (event.approval) item.approval = event.approval as string;
        if (event.waitedMs !== undefined) item.waitedMs = event.waitedMs as number;
        break;
      }
      case "tool-progress": {
        const progress = event.progress as { progress?: number; total?: number; message?: string };
        callOf(event).progress =
          progress.message ??
          `${progress.progress ?? ""}${progress.total ? `/${progress.total}` : ""}`;
        break;
      }
      case "tool-task":
        callOf(event).task = (event.task as { status?: string }).status ?? "";
        break;
      case "tool-run-end":
      case "tool-call-end": {
        const item = callOf(event);
        const result = event.result as ToolResult;
        item.ok = result.ok;
        item.result = result;
        item.summary = result.ok
          ? result.content
              .map((block) => (block.type === "text" ? block.text : `[${block.type}]`))
              .join(" ")
              .slice(0, 300)
          : result.error?.message;
        if (event.type === "tool-run-end") item.durationMs = event.durationMs as number;
        else {
          const hooks = (event.record as { hooks?: CallItem["hooks"] }).hooks;
          if (hooks) item.hooks = hooks;
        }
        break;
      }
      case "tool-search":
        items.push({
          kind: "search",
          turn: event.turn as number,
          engine: event.engine as string,
          query: event.query as string,
          found: event.found as string[],
        });
        break;
      case "compaction":
        items.push({
          kind: "compaction",
          turn: event.turn as number,
          stage: event.stage as string,
          tokensBefore: event.tokensBefore as number,
          tokensAfter: event.tokensAfter as number,
          stubbed: event.stubbedResults as number,
          summarized: event.summarizedMessages as number,
        });
        break;
      case "output-repair":
        items.push({
          kind: "repair",
          turn: event.turn as number,
          issues: (event.issues as unknown[]).length,
        });
        break;
      case "error": {
        const error = event.error as { message?: string } | string;
        items.push({
          kind: "error",
          stage: event.stage as string,
          message: typeof error === "string" ? error : (error?.message ?? "error"),
        });
        break;
      }
      case "run-end":
        items.push({
          kind: "end",
          stopReason: event.stopReason as string,
          turns: event.turns as number,
          usage: event.usage as Usage,
        });
        break;
      default:
        break;
    }
  }
  return items;
}

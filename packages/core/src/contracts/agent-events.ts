import type { Diagnostic } from "./diagnostic.js";
import type { OutputIssue } from "./output-format.js";
import type { PolicyDecision } from "./policy-engine.js";
import type { ProviderUsage, StopReason } from "./provider.js";
import type { ApprovalOutcome, RunResult, ToolCallRecord } from "./run-records.js";
import type { ToolCall, ToolProgress } from "./tool-call.js";
import type { ToolResult } from "./tool-result.js";
import type { ToolSearchEngineInUse } from "./tool-search-types.js";
import type { ToolTaskUpdate } from "./tool-task.js";

/** Which sub-agent an event comes from: its name, its depth (1 = a child), the parent's call. */
export interface SubAgentTag {
  agent: string;
  depth: number;
  /** The id of the parent's tool call that runs the sub-agent. */
  parentCallId: string;
}

/** The events' payloads as the agent that raises them emits them. */
export interface AgentEventPayloads {
  "run-start": [{ prompt: string }];
  /** `estimatedTokens`: the request's input tokens as estimated before it is sent. */
  "turn-start": [
    {
      turn: number;
      /** The tools whose definitions this request carries, in the order sent. */
      tools: string[];
      estimatedTokens: number;
      /** Who searches deferred tools this turn (`none`: nothing is deferred). */
      toolSearch: ToolSearchEngineInUse;
      /** Tools known to search only, not sent. */
      deferredTools: number;
      /** Estimated tokens of the tool definitions this request carries. */
      toolTokens: number;
    },
  ];
  /**
   * A tool search ran: ours (`local`, the `tool_search` tool) or the provider's own
   * (`provider`); `found` are the tools it loaded into the conversation (new ones only).
   */
  "tool-search": [{ turn: number; engine: "local" | "provider"; query: string; found: string[] }];
  "text-delta": [{ turn: number; text: string }];
  /** The model's visible reasoning, for display (extended thinking). */
  "reasoning-delta": [{ turn: number; text: string }];
  /**
   * A piece of a tool call's arguments while the model writes them (raw JSON text; the
   * pieces of one id joined are the arguments so far), from providers that stream them. For
   * display only: the call is decided and run from `tool-call-start`'s complete arguments.
   */
  "tool-input-delta": [{ turn: number; id: string; name: string; delta: string }];
  "tool-call-start": [{ turn: number; call: ToolCall }];
  "tool-decision": [
    {
      turn: number;
      call: ToolCall;
      decision: PolicyDecision;
      approval?: ApprovalOutcome | undefined;
      /**
       * How long the approver (a person at a prompt, a durable run's decision) took to
       * answer, in milliseconds; absent when nobody was asked. A display reports it apart
       * from the call's own duration (`tool-run-end`).
       */
      waitedMs?: number | undefined;
    },
  ];
  /**
   * An allowed call starts running, after its decision and any approval: the moment a timer
   * for the call's own duration starts. Calls that are refused never run and have no such event.
   */
  "tool-run-start": [{ turn: number; call: ToolCall }];
  /**
   * The call finished running, as soon as it did (a turn's `tool-call-end` events come after
   * all of its calls, in call order): its result (after the `afterToolCall` hooks, which the
   * duration includes; before it is adapted for the model) and how long it ran, approval wait
   * excluded.
   */
  "tool-run-end": [{ turn: number; call: ToolCall; result: ToolResult; durationMs: number }];
  "tool-progress": [{ turn: number; call: ToolCall; progress: ToolProgress }];
  /** The call became a long-running task of its source, or its task moved on. */
  "tool-task": [{ turn: number; call: ToolCall; task: ToolTaskUpdate }];
  "tool-call-end": [{ turn: number; call: ToolCall; record: ToolCallRecord; result: ToolResult }];
  "turn-end": [
    {
      turn: number;
      text: string;
      toolCalls: number;
      stopReason: StopReason | undefined;
      usage: ProviderUsage;
    },
  ];
  /** The final answer missed the output schema: it is sent back once with these issues. */
  "output-repair": [{ turn: number; issues: OutputIssue[] }];
  /** The conversation was compacted to fit the context window (the log keeps the whole of it). */
  compaction: [
    {
      turn: number;
      stage: "tool_results" | "summary";
      tokensBefore: number;
      tokensAfter: number;
      window: number | undefined;
      stubbedResults: number;
      summarizedMessages: number;
    },
  ];
  "run-end": [RunResult];
  error: [{ stage: "model" | "tool" | "policy"; error: unknown }];
  diagnostic: [Diagnostic];
}

/**
 * Every step of a run is an event, so a CLI, a web page or a log can follow it. A sub-agent's
 * events reach its parent's listeners too, with `via` saying which sub-agent (and through
 * which call), so a tree of agents can be shown; the agent's own events have no `via`.
 */
export type AgentEvents = {
  [E in keyof AgentEventPayloads]: [AgentEventPayloads[E][0] & { via?: SubAgentTag }];
};

/**
 * The events about a run (every event but `diagnostic`, which is about the agent): what a fork
 * passes on to its parent and what `agent.stream()` yields.
 */
export const RUN_EVENT_NAMES = [
  "run-start",
  "turn-start",
  "text-delta",
  "reasoning-delta",
  "tool-input-delta",
  "tool-call-start",
  "tool-decision",
  "tool-run-start",
  "tool-run-end",
  "tool-progress",
  "tool-task",
  "tool-call-end",
  "tool-search",
  "turn-end",
  "output-repair",
  "compaction",
  "run-end",
  "error",
] as const satisfies ReadonlyArray<keyof AgentEvents>;

/** The name of an event about a run. */
export type RunEventName = (typeof RUN_EVENT_NAMES)[number];

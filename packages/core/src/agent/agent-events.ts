import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { OutputIssue } from "../output/output-schema.js";
import type { PolicyDecision } from "../policy/policy-engine.js";
import type { ProviderUsage, StopReason } from "../provider/provider.js";
import type { ToolCall, ToolProgress } from "../tools/tool-call.js";
import type { ToolResult } from "../tools/tool-result.js";
import type { ToolTaskUpdate } from "../tools/tool-task.js";
import type { ApprovalOutcome, RunResult, ToolCallRecord } from "./agent.js";

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
  "turn-start": [{ turn: number; tools: string[]; estimatedTokens: number }];
  "text-delta": [{ turn: number; text: string }];
  /** The model's visible reasoning, for display (extended thinking). */
  "reasoning-delta": [{ turn: number; text: string }];
  "tool-call-start": [{ turn: number; call: ToolCall }];
  "tool-decision": [
    {
      turn: number;
      call: ToolCall;
      decision: PolicyDecision;
      approval?: ApprovalOutcome | undefined;
    },
  ];
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

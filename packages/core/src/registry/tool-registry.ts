import type { Diagnostic } from "../contracts/diagnostic.js";
import type { InnerCalls } from "../contracts/inner-calls.js";
import type { PolicyDecision } from "../contracts/policy-engine.js";
import type { CallingAgent, ForkCapability } from "../contracts/run-records.js";
import type { Tool } from "../contracts/tool.js";
import type { ToolCall, ToolProgress } from "../contracts/tool-call.js";
import type { ToolDefinition } from "../contracts/tool-definition.js";
import type { ToolFailure, ToolResult } from "../contracts/tool-result.js";
import type { ToolChange } from "../contracts/tool-source.js";
import type { ToolTaskMode, ToolTaskUpdate } from "../contracts/tool-task.js";
import type { ToolTrace } from "../contracts/tool-trace.js";
import type { Redactor } from "../diagnostics/redactor.js";
import type { ToolSearchCapability } from "../tool-search/search-tool.js";

/** Typed events of the registry. `changed` summarises one applied change. */
export interface ToolRegistryEvents {
  "tool-added": [{ definition: ToolDefinition }];
  "tool-removed": [{ definition: ToolDefinition }];
  "tool-replaced": [{ previous: ToolDefinition; definition: ToolDefinition }];
  changed: [ToolRegistryChange];
  diagnostic: [Diagnostic];
}

export interface ToolRegistryChange {
  source: string;
  added: string[];
  removed: string[];
  replaced: string[];
  /** Incremented on every applied change; caches compare it. */
  version: number;
}

export interface ApplyChangeOutcome extends ToolRegistryChange {
  /** Tools that were refused (empty or duplicate names), one diagnostic each. */
  rejected: Diagnostic[];
}

export interface ExecuteOptions {
  /** Cancels the call (the agent's run signal, a CLI Ctrl-C). */
  signal?: AbortSignal | undefined;
  /** Per-call timeout: highest precedence, see `resolveEffectiveTimeout`. */
  timeoutMs?: number | undefined;
  onProgress?: ((progress: ToolProgress) => void) | undefined;
  /** The call became a long-running task, or its task moved on (see `ToolExecutionContext.reportTask`). */
  onTask?: ((update: ToolTaskUpdate) => void) | undefined;
  /** How a call that becomes a task runs (see {@link ToolTaskMode}). */
  task?: ToolTaskMode | undefined;
  /** Starts a child of the agent running the call (see `ToolExecutionContext.fork`). */
  fork?: ForkCapability | undefined;
  /**
   * The agent running the call, handed to the tool.
   * @deprecated Pass {@link ExecuteOptions.fork}; see `ToolExecutionContext.agent`.
   */
  agent?: CallingAgent | undefined;
  /** The conversation's tool search, for the search tool (see `ToolExecutionContext.toolSearch`). */
  toolSearch?: ToolSearchCapability | undefined;
  /** Calls of other tools, for a tool that makes them (see `ToolExecutionContext.inner`). */
  inner?: InnerCalls | undefined;
  /** The call's trace, handed to the tool (see `ToolExecutionContext.trace`). */
  trace?: ToolTrace | undefined;
  /** The agent's policy, for `ToolExecutionContext.judge`: decides without asking anyone. */
  judge?(
    tool: ToolDefinition,
    args: Record<string, unknown>,
  ): PolicyDecision | Promise<PolicyDecision>;
}

/** A call the registry routed and checked; `run` runs it without checking it again. */
export interface PreparedCall {
  readonly call: ToolCall;
  readonly tool: Tool;
  /** Id of the source that provides the tool. */
  readonly source: string;
  /** The arguments as the tool's validator returned them (defaults applied). */
  readonly arguments: Record<string, unknown>;
}

/**
 * What `prepare` found: a call ready to run, a known tool with arguments it refuses, or a name
 * no source provides. The refusals carry the result to answer the call with.
 */
export type CallPreparation =
  | { kind: "ready"; prepared: PreparedCall }
  | { kind: "invalid"; tool: Tool; result: ToolFailure }
  | { kind: "unknown"; result: ToolFailure };

/** The one place tools live, whatever their source. */
export interface ToolRegistry {
  /** Monotonic version, bumped by every change. */
  readonly version: number;
  /**
   * Apply a source's change. Bad items are rejected with a diagnostic (and a `diagnostic`
   * event); the rest is applied. Never throws for bad tools.
   */
  applyChange(sourceId: string, change: ToolChange): ApplyChangeOutcome;
  /** Remove every tool of a source (when it closes). */
  removeSource(sourceId: string): ApplyChangeOutcome;
  get(name: string): Tool | undefined;
  list(): readonly Tool[];
  /** The tools of one source the registry holds (not those it refused, e.g. a taken name). */
  toolsOf(sourceId: string): readonly Tool[];
  definitions(): readonly ToolDefinition[];
  /**
   * Route a call and check its arguments (a JSON object, then the tool's validator) without
   * running anything. This is the one place arguments are checked: the agent prepares a call
   * before it asks a person, so nobody approves a call that cannot run.
   */
  prepare(call: ToolCall): CallPreparation;
  /** Run a prepared call: the one effective timeout, abort, metadata. */
  run(prepared: PreparedCall, options?: ExecuteOptions): Promise<ToolResult>;
  /** `prepare`, then `run`; a refused call is answered with its failure. */
  execute(call: ToolCall, options?: ExecuteOptions): Promise<ToolResult>;
  on<E extends keyof ToolRegistryEvents>(
    event: E,
    listener: (...args: ToolRegistryEvents[E]) => void,
  ): this;
  off<E extends keyof ToolRegistryEvents>(
    event: E,
    listener: (...args: ToolRegistryEvents[E]) => void,
  ): this;
}

/** DI token for {@link ToolRegistry}. */
export const ToolRegistry = Symbol.for("@pseudoclaude/core:ToolRegistry");

/** Registry-wide settings. */
export interface ToolRegistryOptions {
  /** Timeout when neither the call nor the tool sets one. Default 120 000 ms. */
  defaultTimeoutMs?: number | undefined;
  /**
   * After a timeout or cancel aborts the signal, how long to wait for the tool to finish on
   * its own (so it can report e.g. `mcp_call_error` with its reason) before giving up on it.
   */
  abortGraceMs?: number | undefined;
  workspace?: string | undefined;
  /**
   * How many calls run at once; more wait, in order, for a free slot (their timeout starts
   * when they run). Default 64 (`DEFAULT_MAX_CONCURRENT_CALLS`).
   */
  maxConcurrentCalls?: number | undefined;
  /** Secrets registered with the agent are taken out of every result (see redact-result.ts). */
  redactor?: Redactor | undefined;
}

/** Calls the registry runs at once unless told otherwise. */
export const DEFAULT_MAX_CONCURRENT_CALLS = 64;

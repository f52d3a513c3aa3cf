import type { CallAbortReason } from "../util/abort.js";
import type { Disposable } from "../util/disposable.js";
import type { InnerCalls } from "./inner-calls.js";
import type { PolicyDecision } from "./policy-engine.js";
import type { CallingAgent, ForkCapability } from "./run-records.js";
import type { ToolProgress } from "./tool-call.js";
import type { ToolDefinition } from "./tool-definition.js";
import type { ToolResult } from "./tool-result.js";
import type { ToolSearchCapability } from "./tool-search-types.js";
import type { ToolTaskMode, ToolTaskUpdate } from "./tool-task.js";
import type { ToolTrace } from "./tool-trace.js";

/** What a tool gets for one call. */
export interface ToolExecutionContext {
  callId: string;
  /**
   * Aborted on the call's timeout or when the caller cancels; `reason` (a CallAbortReason)
   * says which. Made when first read: a tool that only needs to hear of the abort uses
   * `onAbort`, which costs less (an AbortSignal costs about 5 µs to make on Node 20).
   */
  readonly signal: AbortSignal;
  /**
   * Run `listener` once when the call is aborted, with the same reason the signal gets (at
   * once if it already was). Dispose it when the work it guards is done.
   */
  onAbort(listener: (reason: CallAbortReason) => void): Disposable;
  /** The one effective timeout for this call. Tools must not add a timer of their own. */
  timeoutMs: number;
  workspace: string;
  reportProgress(progress: ToolProgress): void;
  /**
   * Whether anyone listens to progress. Asking a remote server for progress has a cost (MCP
   * progress tokens), so sources only ask when this is true.
   */
  progressWanted: boolean;
  /**
   * Start a child of the agent whose loop (or `callTool`) runs this call, as a sub-agent tool
   * does. Undefined for a registry used on its own.
   */
  fork?: ForkCapability;
  /**
   * The agent that runs this call, when one does.
   * @deprecated Tools get {@link ToolExecutionContext.fork}, which is all a tool should do
   * with its caller; `agent` will be removed in the next major version.
   */
  agent?: CallingAgent;
  /**
   * The call's trace, while a tracer records it: pass `trace.headers` on to a remote server
   * (the MCP plugin puts them in `params._meta` and HTTP headers). See docs/tracing.md.
   */
  trace?: ToolTrace;
  /**
   * The conversation's tool search: find deferred tools and load them for the conversation.
   * Only the search tool needs it; undefined outside an agent's conversation.
   */
  toolSearch?: ToolSearchCapability | undefined;
  /**
   * What the agent's policy would decide for a call of `toolName` (default: this call's own
   * tool) with `args`, asking no one and running nothing. Undefined when no policy runs the
   * call (a registry used on its own) or no tool of that name is registered. A tool that shows
   * many files (grep, glob) asks it for each one, so a path rule holds for what the tool
   * returns, not only for the folder it was given.
   */
  judge?:
    | ((args: Record<string, unknown>, toolName?: string) => Promise<PolicyDecision | undefined>)
    | undefined;
  /**
   * The call became (or is) a long-running task of its source (an MCP task). From the first
   * report on, the call's timeout no longer bounds it: the tool applies `timeoutMs` to each
   * request it makes for the task, and the tool's `taskTimeoutMs` (default: none) bounds the
   * whole task. The caller can still cancel it; every report is a `tool-task` event.
   */
  reportTask(update: ToolTaskUpdate): void;
  /** How a call that becomes a task runs (a durable run hands it off and resumes it). */
  readonly taskMode?: ToolTaskMode;
  /** Calls of other tools on the agent's behalf, for a tool whose definition has `innerCalls`. */
  inner?: InnerCalls | undefined;
}

/**
 * Outcome of validating arguments before a call: `ok` (with the arguments as the tool wants
 * them, e.g. defaults applied, if they differ), or a message naming the failing path.
 */
export type ArgumentValidation =
  | { ok: true; value?: Record<string, unknown> }
  | { ok: false; message: string };

/** A tool: its definition (data) and how to run it. */
export interface Tool {
  readonly definition: ToolDefinition;
  /**
   * Validate arguments before anything runs. Compiled once when the tool is built, so a call
   * costs one validation; the registry calls it exactly once per call and passes `value` (or
   * the arguments as given) to `execute`. Without it the registry only checks that arguments
   * are an object.
   */
  validate?(args: Record<string, unknown>): ArgumentValidation;
  /**
   * Run the tool. Failures the model should read are returned as a failed ToolResult; a thrown
   * error becomes `tool_error` (or `timeout`/`cancelled` if the signal was aborted).
   */
  execute(args: Record<string, unknown>, context: ToolExecutionContext): Promise<ToolResult>;
  /**
   * The definition the model is sent, given every definition sent in the same request (itself
   * included): a code-mode tool declares the tools sent beside it, the found ones too. Asked
   * when the offer changes, not per request. Without it, `definition` is sent.
   */
  offeredDefinition?(sent: readonly ToolDefinition[]): ToolDefinition;
}

import type { Approver } from "./callbacks.js";
import type { OutputSchema } from "./output-format.js";
import type { PolicyDecision } from "./policy-engine.js";
import type { Provider, ProviderUsage } from "./provider.js";
import type { ToolProgress } from "./tool-call.js";
import type { ToolResult } from "./tool-result.js";

/** What became of an `ask`: a person approved or rejected it, or nobody could be asked. */
export type ApprovalOutcome = "approved" | "rejected" | "no_approver";

/** How a call was decided and what it produced: the same for a model's call and `callTool`. */
export interface CallToolOutcome {
  /** The policy's decision; an `ask` is followed by `approval`. */
  decision: PolicyDecision;
  approval?: ApprovalOutcome;
  result: ToolResult;
}

/** One tool call as it happened: what the policy said and what the model saw. */
export interface ToolCallRecord extends CallToolOutcome {
  id: string;
  name: string;
  /** The arguments the call ran with (after any hook rewrote them; see `hooks`). */
  arguments: unknown;
  turn: number;
  /** The call that made this one, for an inner call (a code-mode program's). */
  parentId?: string;
  /** What hooks did to this call: allowed, denied, rewrote its arguments or its result. */
  hooks?: HookNote[];
}

export type RunStopReason = "end_turn" | "max_turns" | "aborted";

export interface RunResult {
  /** Text of the final model turn. */
  text: string;
  turns: number;
  toolCalls: ToolCallRecord[];
  stopReason: RunStopReason;
  usage: ProviderUsage;
  /** The validated output, when the run was given an `output` schema. */
  output?: unknown;
}

/** What `run(prompt, { output: schema })` resolves with: `output` typed from the schema. */
export interface StructuredRunResult<T> extends RunResult {
  output: T;
}

/** What a sub-agent is made of (see `Agent.fork`, `subAgent`). */
export interface ForkOptions {
  name: string;
  /** Its system prompt. */
  instructions: string;
  /** Tool name patterns it may use (policy rule syntax); default all of the parent's. */
  tools?: readonly string[] | undefined;
  /** Default the parent's. */
  provider?: Provider | undefined;
  maxTurns?: number | undefined;
  /** The parent's call that runs it, for the events' `via`. */
  parentCallId: string;
}

/**
 * What a tool may do with the agent that runs its call: start a child of it (a sub-agent).
 * Tools get this, not the whole agent, so a tool cannot run, close or reconfigure its caller.
 */
export interface ForkCapability {
  /** How deep the running agent is: 0 for the agent you made, 1 for its sub-agent... */
  readonly depth: number;
  /** The running agent's model, for a child that runs another model of it. */
  readonly provider: Provider | undefined;
  /** A child of the running agent (see `Agent.fork`): runs prompts, and is closed after. */
  start(options: ForkOptions): SubAgentHandle;
}

/**
 * A sub-agent as the tool that started it holds it: it runs prompts and is closed when done;
 * how deep it is and which model it runs are said in the tool's result.
 */
export interface SubAgentHandle {
  readonly depth: number;
  readonly provider: Provider | undefined;
  run(prompt: string, options?: SubAgentRunOptions): Promise<RunResult>;
  close(): Promise<void>;
}

/** What a sub-agent's run may be given: its signal, and the output its answer must match. */
export interface SubAgentRunOptions {
  signal?: AbortSignal | undefined;
  output?: OutputSchema<unknown> | undefined;
}

/**
 * The agent that runs a tool's call, as the call sees it: it may call other tools (as the
 * caller's own calls, decided by the policy).
 */
export interface CallingAgent {
  callTool(name: string, args: unknown, options?: CallToolOptions): Promise<CallToolOutcome>;
}

export interface CallToolOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  /** The call's progress as its tool reports it (an MCP server's progress notifications). */
  onProgress?: ((progress: ToolProgress) => void) | undefined;
  /**
   * Who answers if the policy asks about this call, instead of the agent's `approve`: a server
   * that runs calls for several people (a gateway, a web page) asks the one who made it. It only
   * answers an `ask`; what the policy allows or denies stays so.
   */
  approver?: Approver | undefined;
  /**
   * The call is a view's (an MCP App of tool source `source`, e.g. `mcp:weather`): only that
   * source's tools whose audience includes `"app"` may run; any other is denied. Without it the
   * call is the caller's own (a person, a gateway's client), whatever the tool's audience.
   */
  fromApp?: { source: string } | undefined;
}

/** What a hook did to a call, kept on its record (and so on its `tool-call-end` event). */
export interface HookNote {
  /** The hook's name (its function's name, or the plugin's label). */
  hook: string;
  stage: "beforeToolCall" | "afterToolCall";
  action: "allow" | "deny" | "rewrite" | "failed";
  reason?: string;
  /** For an argument rewrite: the arguments the model sent. */
  originalArguments?: unknown;
}

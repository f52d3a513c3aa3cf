import type { ContextCompaction } from "../context/context-manager.js";
import type { AgentEvents } from "../contracts/agent-events.js";
import type { AgentStream } from "../contracts/agent-stream.js";
import type { Diagnostic } from "../contracts/diagnostic.js";
import type { PermissionMode } from "../contracts/policy-engine.js";
import type { Provider } from "../contracts/provider.js";
import type {
  CallToolOptions,
  CallToolOutcome,
  ForkOptions,
  RunResult,
  StructuredRunResult,
} from "../contracts/run-records.js";
import type { ToolDefinition } from "../contracts/tool-definition.js";
import type { SourceReport } from "../contracts/tool-source.js";
import type { Conversation } from "../conversation/conversation.js";
import type { RunJournal } from "../journal/run-journal.js";
import type { OutputSchema } from "../output/output-schema.js";
import type { ToolRegistry } from "../registry/tool-registry.js";
import type { SessionStore } from "../session/session-store.js";
import type { ToolOffer } from "../tool-search/tool-offer.js";
import type { ToolSearchSettings } from "../tool-search/tool-search-options.js";

export interface RunOptions {
  signal?: AbortSignal | undefined;
  /**
   * Ask for a typed result: a zod schema, or a JSON Schema (`jsonSchemaOutput`). The model may
   * use tools first; its final answer must be JSON matching the schema, and the result carries
   * it, validated, under `output`. See docs/structured-output.md.
   */
  output?: OutputSchema<unknown> | undefined;
  maxTurns?: number | undefined;
  /** Per-call timeout for every tool call of this run (highest timeout precedence). */
  toolTimeoutMs?: number | undefined;
  /**
   * Where the run's steps (model turns, tool calls, compactions, approvals) are recorded so a
   * replay on another worker does not run them again. Default: none, each step just runs. See
   * docs/durable-runs.md.
   */
  journal?: RunJournal | undefined;
}

/** A ready agent: the ReAct loop over one conversation. */
export interface Agent {
  readonly workspace: string;
  readonly conversation: Conversation;
  readonly registry: ToolRegistry;
  /** The model provider, if one was given or registered by a plugin (`run` needs one). */
  readonly provider: Provider | undefined;
  /** The session this agent's conversation is saved to (`createAgent({ session })`), if any. */
  readonly sessionId: string | undefined;
  /** Where the session is kept, if the agent has one. */
  readonly sessionStore: SessionStore | undefined;
  /**
   * Continue another session of the store: its conversation replaces this one, and what
   * follows is saved to it. Throws `UsageError` `session_not_found`, or `run_in_progress`.
   */
  resumeSession(sessionId: string): Promise<void>;
  /**
   * Compact the conversation now, whatever its size (a chat's `/compact`): old tool results
   * shortened, old turns summarised. Resolves with what changed, or undefined when there was
   * nothing to compact. Throws `UsageError` `run_in_progress` during a run.
   */
  compact(options?: { signal?: AbortSignal }): Promise<ContextCompaction | undefined>;
  /**
   * Run the ReAct loop on `prompt`. With `output`, the result's `output` is the final answer
   * parsed and validated against the schema (a StructuredOutputError when it cannot be).
   */
  run<T>(
    prompt: string,
    options: RunOptions & { output: OutputSchema<T> },
  ): Promise<StructuredRunResult<T>>;
  run(prompt: string, options?: RunOptions): Promise<RunResult>;
  /**
   * `run(prompt)` as a stream: iterate it for the run's events in order (`for await`), await
   * its `text` or `result`, or return it from a web handler (`toResponse()`,
   * `toUIMessageStreamResponse()`). Leaving the loop early cancels the run. See
   * docs/streaming.md.
   */
  stream(prompt: string, options?: RunOptions): AgentStream;
  /** Run one tool through policy, approval, registry and timeout, as the loop would. */
  callTool(name: string, args: unknown, options?: CallToolOptions): Promise<CallToolOutcome>;
  /**
   * Definitions the model can reach now (policy applied): those sent up front and those it
   * finds through tool search. {@link Agent.toolOffer} says which is which.
   */
  offeredTools(): readonly ToolDefinition[];
  /**
   * What the next request offers, per tool: loaded (sent), deferred (known to search only) or
   * found (loaded by a search in this conversation), and who searches. See docs/tool-search.md.
   */
  toolOffer(): ToolOffer;
  /** The system prompt the model would see now. */
  systemPrompt(): string;
  diagnostics(): readonly Diagnostic[];
  sources(): SourceReport[];
  /** Resolves once every tool source has started (or failed), background ones included. */
  whenSourcesStarted(): Promise<void>;
  /** The permission mode now. */
  readonly mode: PermissionMode;
  /**
   * Switch the permission mode (a chat's `/mode plan`); the offered tools follow at once.
   * Throws `UsageError` `mode_not_switchable` when the policy engine cannot.
   */
  setMode(mode: PermissionMode): void;
  on<E extends keyof AgentEvents>(event: E, listener: (...args: AgentEvents[E]) => void): this;
  off<E extends keyof AgentEvents>(event: E, listener: (...args: AgentEvents[E]) => void): this;
  /**
   * A service from this agent's container, e.g. a plugin's API
   * (`agent.resolve<McpManager>(McpManager)`). Throws a ConfigError naming the token when
   * nothing registered it.
   */
  resolve<T>(token: symbol | string | (abstract new (...args: never[]) => T)): T;
  /** 0 for an agent of `createAgent`, 1 for its sub-agents, 2 for theirs ... */
  readonly depth: number;
  /**
   * A child agent (a sub-agent): its own conversation and instructions, this agent's tools
   * narrowed to `tools`, this agent's policy (it can only narrow it), hooks and approver. Its
   * events reach this agent's listeners with `via`. Closing it ends its runs only.
   */
  fork(options: ForkOptions): Agent;
  /** Close every source (ends child processes). Safe to call twice. */
  close(): Promise<void>;
}

/** The agent's name where one is shown (traces) and none was given. */
export const DEFAULT_AGENT_NAME = "pseudoclaude";

/** Loop settings resolved from options and config. */
export interface AgentSettings {
  /** Its name in traces: `createAgent({ name })`, or a sub-agent's own. */
  name?: string;
  workspace: string;
  systemPrompt: string;
  maxTurns: number;
  /** The context window when the provider declares none (or to override it). */
  contextWindow?: number;
  /** When tools are deferred and who searches them. */
  toolSearch: ToolSearchSettings;
}

export type {
  ApprovalOutcome,
  CallingAgent,
  CallToolOptions,
  CallToolOutcome,
  ForkCapability,
  ForkOptions,
  RunResult,
  RunStopReason,
  StructuredRunResult,
  SubAgentHandle,
  SubAgentRunOptions,
  ToolCallRecord,
} from "../contracts/run-records.js";
export type { SourceReport } from "../contracts/tool-source.js";

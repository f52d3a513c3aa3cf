import type { Conversation } from "../conversation/conversation.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { DecisionBasis, PolicyDecision, Verdict } from "../policy/policy-engine.js";
import type { Provider, ProviderUsage } from "../provider/provider.js";
import type { ToolRegistry } from "../registry/tool-registry.js";
import type { ToolDefinition } from "../tools/tool-definition.js";
import type { ToolResult } from "../tools/tool-result.js";
import type { ToolSourceStatus } from "../tools/tool-source.js";
import type { AgentEvents } from "./agent-events.js";

export interface RunOptions {
  signal?: AbortSignal;
  maxTurns?: number;
  /** Per-call timeout for every tool call of this run (highest timeout precedence). */
  toolTimeoutMs?: number;
}

/** One tool call as it happened: what the policy said and what the model saw. */
export interface ToolCallRecord {
  id: string;
  name: string;
  arguments: unknown;
  turn: number;
  /** The policy's verdict. `ask` is followed by `approval`. */
  decision: Verdict;
  reason: string;
  /** What made the decision (rule, mode, safety ...); absent for unknown tools. */
  matched?: DecisionBasis;
  approval?: "approved" | "rejected" | "no_approver";
  result: ToolResult;
}

export type RunStopReason = "end_turn" | "max_turns" | "aborted";

export interface RunResult {
  /** Text of the final model turn. */
  text: string;
  turns: number;
  toolCalls: ToolCallRecord[];
  stopReason: RunStopReason;
  usage: ProviderUsage;
}

export interface CallToolOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Result of `agent.callTool`: the same path as a model's call, without the model. */
export interface CallToolOutcome {
  decision: PolicyDecision;
  approval?: ToolCallRecord["approval"];
  result: ToolResult;
}

export interface SourceReport {
  id: string;
  status: ToolSourceStatus;
}

/** A ready agent: the ReAct loop over one conversation. */
export interface Agent {
  readonly workspace: string;
  readonly conversation: Conversation;
  readonly registry: ToolRegistry;
  /** The model provider, if one was given or registered by a plugin (`run` needs one). */
  readonly provider: Provider | undefined;
  run(prompt: string, options?: RunOptions): Promise<RunResult>;
  /** Run one tool through policy, approval, registry and timeout, as the loop would. */
  callTool(name: string, args: unknown, options?: CallToolOptions): Promise<CallToolOutcome>;
  /** Definitions the model would be offered now (policy applied). */
  offeredTools(): readonly ToolDefinition[];
  /** The system prompt the model would see now. */
  systemPrompt(): string;
  diagnostics(): readonly Diagnostic[];
  sources(): SourceReport[];
  on<E extends keyof AgentEvents>(event: E, listener: (...args: AgentEvents[E]) => void): this;
  off<E extends keyof AgentEvents>(event: E, listener: (...args: AgentEvents[E]) => void): this;
  /**
   * A service from this agent's container, e.g. a plugin's API
   * (`agent.resolve<McpManager>(McpManagerToken)`). Throws a ConfigError naming the token when
   * nothing registered it.
   */
  resolve<T>(token: symbol | string | (abstract new (...args: never[]) => T)): T;
  /** Close every source (ends child processes). Safe to call twice. */
  close(): Promise<void>;
}

/** DI token for {@link Agent}. */
export const Agent = Symbol.for("@pseudoclaude/core:Agent");

/** Loop settings resolved from options and config. */
export interface AgentSettings {
  workspace: string;
  systemPrompt: string;
  maxTurns: number;
}

/** DI token for {@link AgentSettings}. */
export const AgentSettings = Symbol.for("@pseudoclaude/core:AgentSettings");

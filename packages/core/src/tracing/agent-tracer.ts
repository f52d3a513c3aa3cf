import type { Attributes, Context, Span } from "@opentelemetry/api";
import type { HookNote } from "../contracts/agent-hooks.js";
import type { Message } from "../contracts/message.js";
import type { DecisionBasis, PolicyDecision } from "../contracts/policy-engine.js";
import type { Provider, ProviderUsage, StopReason } from "../contracts/provider.js";
import type { ToolCall } from "../contracts/tool-call.js";
import type { ToolDefinition } from "../contracts/tool-definition.js";
import type { ToolResult } from "../contracts/tool-result.js";
import type { ToolTrace } from "../contracts/tool-trace.js";
import { PseudoClaudeError } from "../errors.js";
import type { OutputFormat } from "../output/output-schema.js";
import { otelApi } from "./otel-api.js";
import { GEN_AI_ATTRIBUTES, PSEUDOCLAUDE_ATTRIBUTES } from "./trace-attributes.js";
import { messagesJson, outputJson, resultText, systemJson } from "./trace-content.js";
import type { TracerSource } from "./tracing-options.js";

// The API's enum values (stable since 1.0), so no call path needs the API loaded to name them.
const SPAN_KIND_INTERNAL = 0;
const SPAN_KIND_CLIENT = 2;
const STATUS_ERROR = 2;

/** The spans of one run: the model requests and tool calls in it are its children. */
export interface RunSpan {
  /** False when no tracer records (no provider registered, or not sampled): nothing below it is built. */
  readonly recording: boolean;
  /** The run's context; undefined when nothing is registered to trace. */
  readonly context: Context | undefined;
  end(outcome: {
    turns: number;
    stopReason: string;
    toolCalls: number;
    usage: ProviderUsage;
  }): void;
  fail(error: unknown): void;
}

export interface ModelRequestSpan {
  /** Run `fn` with this span active, so a provider SDK's own HTTP spans nest under it. */
  within<T>(fn: () => Promise<T>): Promise<T>;
  end(answer: {
    text: string;
    toolCalls: readonly ToolCall[];
    stopReason: StopReason | undefined;
    usage: ProviderUsage;
  }): void;
  fail(error: unknown): void;
}

export interface ToolCallSpan {
  /** What the tool gets (`ToolExecutionContext.trace`); undefined when nothing records. */
  readonly trace: ToolTrace | undefined;
  tool(definition: ToolDefinition): void;
  decided(decision: PolicyDecision, approval: string | undefined): void;
  /** Run the tool with this span active; a sub-agent started by it becomes its child. */
  executing<T>(fn: () => Promise<T>): Promise<T>;
  end(outcome: { result: ToolResult; hooks?: readonly HookNote[] }): void;
}

const NOOP_MODEL: ModelRequestSpan = {
  within: (fn) => fn(),
  end() {},
  fail() {},
};

/** A run with no tracer provider to go to: nothing below it is built either. */
const UNTRACED_RUN: RunSpan = {
  recording: false,
  context: undefined,
  end() {},
  fail() {},
};

const NOOP_TOOL: ToolCallSpan = {
  trace: undefined,
  tool() {},
  decided() {},
  executing: (fn) => fn(),
  end() {},
};

/**
 * Spans for one agent, by the OpenTelemetry GenAI conventions: `invoke_agent <name>` per run,
 * `chat <model>` per model request, `execute_tool <tool>` per tool call. Through
 * `@opentelemetry/api` only, loaded when a tracer provider is there: without one nothing is
 * built at all, and a run that does not record (not sampled) builds no child spans, so the
 * call path pays one check.
 */
export class AgentTracer {
  /** Contexts of calls running now, by id: a sub-agent's run is parented to its call. */
  private readonly running = new Map<string, Context>();

  private readonly recordContent: boolean;

  constructor(
    private readonly source: TracerSource,
    private readonly agent: { name: string; depth: number },
  ) {
    this.recordContent = source.recordContent;
  }

  /** The context of a call this agent is running, for the sub-agent it starts. */
  callContext(callId: string): Context | undefined {
    return this.running.get(callId);
  }

  startRun(info: {
    prompt: string;
    provider: Provider;
    sessionId: string | undefined;
    parent: Context | undefined;
  }): RunSpan {
    const tracer = this.source.tracer();
    if (!tracer) return UNTRACED_RUN;
    const attributes: Attributes = {
      [GEN_AI_ATTRIBUTES.operation]: "invoke_agent",
      [GEN_AI_ATTRIBUTES.agentName]: this.agent.name,
      [GEN_AI_ATTRIBUTES.provider]: info.provider.name,
      [PSEUDOCLAUDE_ATTRIBUTES.depth]: this.agent.depth,
    };
    if (info.provider.model) attributes[GEN_AI_ATTRIBUTES.requestModel] = info.provider.model;
    if (info.sessionId) attributes[GEN_AI_ATTRIBUTES.conversationId] = info.sessionId;
    if (this.recordContent)
      attributes[GEN_AI_ATTRIBUTES.inputMessages] = messagesJson([
        { role: "user", content: info.prompt },
      ]);
    const api = otelApi();
    const parent = info.parent ?? api.context.active();
    const span = tracer.startSpan(
      `invoke_agent ${this.agent.name}`,
      { kind: SPAN_KIND_INTERNAL, attributes },
      parent,
    );
    const recording = span.isRecording();
    return {
      recording,
      context: api.trace.setSpan(parent, span),
      end: (outcome) => {
        span.setAttributes({
          [PSEUDOCLAUDE_ATTRIBUTES.turns]: outcome.turns,
          [PSEUDOCLAUDE_ATTRIBUTES.stopReason]: outcome.stopReason,
          [PSEUDOCLAUDE_ATTRIBUTES.toolCalls]: outcome.toolCalls,
          ...usageAttributes(outcome.usage),
        });
        span.end();
      },
      fail: (error) => {
        markFailed(span, error);
        span.end();
      },
    };
  }

  startModelRequest(
    run: RunSpan,
    provider: Provider,
    request: {
      system: string;
      messages: readonly Message[];
      output: OutputFormat | undefined;
      turn: number;
    },
  ): ModelRequestSpan {
    const tracer = this.source.tracer();
    if (!run.recording || !run.context || !tracer) return NOOP_MODEL;
    const attributes: Attributes = {
      [GEN_AI_ATTRIBUTES.operation]: "chat",
      [GEN_AI_ATTRIBUTES.provider]: provider.name,
      [GEN_AI_ATTRIBUTES.stream]: true,
      [PSEUDOCLAUDE_ATTRIBUTES.turn]: request.turn,
    };
    if (provider.model) attributes[GEN_AI_ATTRIBUTES.requestModel] = provider.model;
    if (request.output) attributes[GEN_AI_ATTRIBUTES.outputType] = "json";
    if (this.recordContent) {
      attributes[GEN_AI_ATTRIBUTES.systemInstructions] = systemJson(request.system);
      attributes[GEN_AI_ATTRIBUTES.inputMessages] = messagesJson(request.messages);
    }
    const api = otelApi();
    const span = tracer.startSpan(
      provider.model ? `chat ${provider.model}` : "chat",
      { kind: SPAN_KIND_CLIENT, attributes },
      run.context,
    );
    const active = api.trace.setSpan(run.context, span);
    return {
      within: (fn) => api.context.with(active, fn),
      end: (answer) => {
        span.setAttributes({
          [GEN_AI_ATTRIBUTES.finishReasons]: [answer.stopReason ?? "unknown"],
          ...usageAttributes(answer.usage),
        });
        if (this.recordContent)
          span.setAttribute(
            GEN_AI_ATTRIBUTES.outputMessages,
            outputJson(answer.text, answer.toolCalls),
          );
        span.end();
      },
      fail: (error) => {
        markFailed(span, error);
        span.end();
      },
    };
  }

  /** A call of the run (`run`), or of `callTool` (no run: the caller's active context). */
  startToolCall(run: RunSpan | undefined, call: ToolCall, turn: number): ToolCallSpan {
    if (run && !run.recording) return NOOP_TOOL;
    const tracer = this.source.tracer();
    if (!tracer) return NOOP_TOOL;
    const api = otelApi();
    // An inner call (a program's) nests under the call that made it, while that one runs; one
    // whose caller is not recorded is not either.
    const caller = call.parentId !== undefined ? this.running.get(call.parentId) : undefined;
    if (call.parentId !== undefined && !caller) return NOOP_TOOL;
    const parent = caller ?? run?.context ?? api.context.active();
    const attributes: Attributes = {
      [GEN_AI_ATTRIBUTES.operation]: "execute_tool",
      [GEN_AI_ATTRIBUTES.toolName]: call.name,
      [GEN_AI_ATTRIBUTES.toolCallId]: call.id,
      [PSEUDOCLAUDE_ATTRIBUTES.depth]: this.agent.depth,
      [PSEUDOCLAUDE_ATTRIBUTES.turn]: turn,
    };
    if (this.recordContent)
      attributes[GEN_AI_ATTRIBUTES.toolArguments] = JSON.stringify(call.arguments);
    const span = tracer.startSpan(
      `execute_tool ${call.name}`,
      { kind: SPAN_KIND_INTERNAL, attributes },
      parent,
    );
    if (!span.isRecording()) return NOOP_TOOL;
    const active = api.trace.setSpan(parent, span);
    const running = this.running;
    return {
      trace: new SpanToolTrace(span, active),
      tool(definition) {
        span.setAttributes({
          [PSEUDOCLAUDE_ATTRIBUTES.source]: definition.source,
          [PSEUDOCLAUDE_ATTRIBUTES.safety]: definition.safety,
          [GEN_AI_ATTRIBUTES.toolDescription]: definition.description,
        });
      },
      decided(decision, approval) {
        // Built by assignment: the spreads of optional parts made an object each, every call.
        const decided: Attributes = {
          [PSEUDOCLAUDE_ATTRIBUTES.verdict]: decision.verdict,
          [PSEUDOCLAUDE_ATTRIBUTES.basis]: decision.matched.kind,
        };
        const rule = ruleText(decision.matched);
        if (rule !== undefined) decided[PSEUDOCLAUDE_ATTRIBUTES.rule] = rule;
        if (approval) decided[PSEUDOCLAUDE_ATTRIBUTES.approval] = approval;
        span.setAttributes(decided);
      },
      executing(fn) {
        // When the tool starts (after any approval wait), as an event on the span.
        span.addEvent("pseudoclaude.tool.execute");
        running.set(call.id, active);
        return api.context.with(active, fn).finally(() => running.delete(call.id));
      },
      end: ({ result, hooks }) => {
        const { timeout_ms: timeoutMs, timeout_source: timeoutSource } = result.metadata;
        if (typeof timeoutMs === "number")
          span.setAttribute(PSEUDOCLAUDE_ATTRIBUTES.timeoutMs, timeoutMs);
        if (typeof timeoutSource === "string")
          span.setAttribute(PSEUDOCLAUDE_ATTRIBUTES.timeoutSource, timeoutSource);
        if (hooks && hooks.length > 0)
          span.setAttribute(
            PSEUDOCLAUDE_ATTRIBUTES.hooks,
            hooks.map((note) => `${note.action} by ${note.hook} (${note.stage})`),
          );
        if (result.ok) {
          if (this.recordContent)
            span.setAttribute(GEN_AI_ATTRIBUTES.toolResult, resultText(result));
        } else {
          span.setAttribute(GEN_AI_ATTRIBUTES.errorType, result.error.code);
          span.setStatus({ code: STATUS_ERROR, message: result.error.message });
        }
        span.end();
      },
    };
  }
}

/** The trace as a tool sees it; the headers are built on first use only. */
class SpanToolTrace implements ToolTrace {
  private built: Record<string, string> | undefined;

  constructor(
    private readonly span: Span,
    private readonly active: Context,
  ) {}

  get headers(): Readonly<Record<string, string>> {
    if (this.built) return this.built;
    const headers: Record<string, string> = {};
    otelApi().propagation.inject(this.active, headers);
    // Without a registered propagator nothing is injected; MCP servers expect W3C trace context.
    if (!headers.traceparent) {
      const { traceId, spanId, traceFlags, traceState } = this.span.spanContext();
      headers.traceparent = `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, "0")}`;
      const state = traceState?.serialize();
      if (state) headers.tracestate = state;
    }
    this.built = headers;
    return headers;
  }

  setAttributes(attributes: Readonly<Record<string, string | number | boolean>>): void {
    this.span.setAttributes(attributes);
  }
}

function usageAttributes(usage: ProviderUsage): Attributes {
  const attributes: Attributes = {};
  if (usage.inputTokens !== undefined)
    attributes[GEN_AI_ATTRIBUTES.inputTokens] = usage.inputTokens;
  if (usage.outputTokens !== undefined)
    attributes[GEN_AI_ATTRIBUTES.outputTokens] = usage.outputTokens;
  if (usage.cacheReadTokens !== undefined)
    attributes[GEN_AI_ATTRIBUTES.cacheReadTokens] = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined)
    attributes[GEN_AI_ATTRIBUTES.cacheWriteTokens] = usage.cacheWriteTokens;
  return attributes;
}

/** What matched, in one string: the rule's pattern, the mode, the hook, the layer's patterns. */
/** What a decision went by, as a span attribute's text; undefined when nothing matched. */
function ruleText(basis: DecisionBasis): string | undefined {
  switch (basis.kind) {
    case "rule":
      return `${basis.origin}:${basis.verdict}(${basis.pattern})`;
    case "unclear_command":
      return `${basis.origin}:unclear(${basis.pattern})`;
    case "mode":
      return `mode:${basis.mode}`;
    case "allow_list":
      return `allow_list:${basis.patterns.join(",")}`;
    case "layer":
      return `${basis.origin}:${basis.effect}(${basis.patterns.join(",")})`;
    case "hook":
      return `hook:${basis.hook}`;
    case "safety":
      return `safety:${basis.safety}`;
    default:
      return undefined;
  }
}

/** `error.type` is the framework's error code where there is one, else the error's class. */
function markFailed(span: Span, error: unknown): void {
  const type = PseudoClaudeError.is(error)
    ? error.code
    : error instanceof Error
      ? error.name
      : "_OTHER";
  span.setAttribute(GEN_AI_ATTRIBUTES.errorType, type);
  if (error instanceof Error) span.recordException(error);
  span.setStatus({
    code: STATUS_ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}

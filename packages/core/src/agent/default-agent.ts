import { EventEmitter } from "eventemitter3";
import type { DependencyContainer, InjectionToken } from "tsyringe";
import type { ContextCompaction, ContextManager } from "../context/context-manager.js";
import { Conversation } from "../conversation/conversation.js";
import type { Message } from "../conversation/message.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { DiagnosticsSink } from "../diagnostics/diagnostics-sink.js";
import { ConfigError, UsageError, type UsageErrorCode } from "../errors.js";
import type { HookScope } from "../hooks/agent-hooks.js";
import type { HookList } from "../hooks/hook-list.js";
import { IN_PROCESS_JOURNAL, type RunJournal } from "../journal/run-journal.js";
import { compileOutput } from "../output/compile-output.js";
import type { OutputFormat, OutputSchema } from "../output/output-schema.js";
import type { PluginHost } from "../plugin/plugin-host.js";
import type { PermissionMode, PolicyEngine } from "../policy/policy-engine.js";
import { LayeredPolicyEngine, PolicyLayers } from "../policy/policy-layer.js";
import type { SystemPromptBuilder } from "../prompt/system-prompt.js";
import { adaptResultContent } from "../provider/content-support.js";
import type { Provider, ProviderUsage } from "../provider/provider.js";
import type { ToolRegistry } from "../registry/tool-registry.js";
import { loadSession } from "../session/load-session.js";
import type { SessionStore } from "../session/session-store.js";
import type { ToolCall, ToolProgress } from "../tools/tool-call.js";
import type { ToolDefinition } from "../tools/tool-definition.js";
import { toolFailure } from "../tools/tool-result.js";
import { AgentTracer, type RunSpan } from "../tracing/agent-tracer.js";
import type { TracerSource } from "../tracing/tracing-options.js";
import { newCallId } from "../util/call-id.js";
import {
  type Agent,
  type AgentSettings,
  type CallToolOptions,
  type CallToolOutcome,
  DEFAULT_AGENT_NAME,
  type ForkOptions,
  type RunOptions,
  type RunResult,
  type SourceReport,
  type StructuredRunResult,
  type ToolCallRecord,
} from "./agent.js";
import { type AgentEvents, RUN_EVENT_NAMES, type SubAgentTag } from "./agent-events.js";
import { type AgentStream, streamRun } from "./agent-stream.js";
import type { AgentCallbacks } from "./callbacks.js";
import { type CompactionDeps, compactConversation } from "./compaction-step.js";
import { addUsage, runModelTurn } from "./model-turn.js";
import { OfferedTools } from "./offered-tools.js";
import { OutputCheck } from "./output-check.js";
import type { ProviderRef } from "./provider-ref.js";
import { runToolCalls, type ToolCallStepDeps, toolCallRecord } from "./run-tool-calls.js";
import { SessionRecorder } from "./session-recorder.js";

/** What an agent is built from; `createAgent` assembles it. */
export interface AgentParts {
  registry: ToolRegistry;
  policy: PolicyEngine;
  /** Layers plugins add over the policy at run time (a loaded skill's allowed tools). */
  layers: PolicyLayers;
  providerRef: ProviderRef;
  prompt: SystemPromptBuilder;
  sink: DiagnosticsSink;
  settings: AgentSettings;
  callbacks: AgentCallbacks;
  host: PluginHost;
  /** The agent's own container, where plugins registered their services. */
  container: DependencyContainer;
  /** Keeps the conversation within the model's context window. */
  context: ContextManager;
  /** Hooks from code and plugins. */
  hooks: HookList;
  /** Where spans go, and whether they carry contents. */
  tracing: TracerSource;
  /** For a fork: how deep it is, and the parent it reports its events to. */
  fork?: { depth: number; tag: SubAgentTag; parent: DefaultAgent };
  /** The session the conversation is saved to, with the conversation it restored. */
  session?: { store: SessionStore; id: string; messages: Message[]; started: boolean };
}

/** The ReAct loop: model turn, policy, registry, results back into the conversation. */
export class DefaultAgent extends EventEmitter<AgentEvents> implements Agent {
  readonly conversation: Conversation;
  readonly sessionStore: SessionStore | undefined;
  private readonly context: ContextManager;
  private readonly hooks: HookList;
  private readonly recorder: SessionRecorder | undefined;
  readonly registry: ToolRegistry;
  private readonly policy: PolicyEngine;
  private readonly providerRef: ProviderRef;
  private readonly prompt: SystemPromptBuilder;
  private readonly sink: DiagnosticsSink;
  private readonly settings: AgentSettings;
  private readonly callbacks: AgentCallbacks;
  private readonly host: PluginHost;
  private readonly container: DependencyContainer;
  private readonly offered: OfferedTools;
  private readonly tracer: AgentTracer;
  private closed = false;
  private running: AbortController | undefined;

  readonly depth: number;
  private readonly parts: AgentParts;

  constructor(parts: AgentParts) {
    super();
    this.parts = parts;
    this.depth = parts.fork?.depth ?? 0;
    ({
      registry: this.registry,
      providerRef: this.providerRef,
      prompt: this.prompt,
      sink: this.sink,
      settings: this.settings,
      callbacks: this.callbacks,
      host: this.host,
      container: this.container,
    } = parts);
    this.conversation = new Conversation(parts.session?.messages ?? []);
    this.context = parts.context;
    this.hooks = parts.hooks;
    this.sessionStore = parts.session?.store;
    this.recorder = parts.session
      ? new SessionRecorder(
          parts.session.store,
          parts.session.id,
          parts.settings.workspace,
          this.conversation,
          (diagnostic) => this.sink.add(diagnostic),
          parts.session.started,
        )
      : undefined;
    this.tracer = new AgentTracer(parts.tracing, {
      name: parts.settings.name ?? DEFAULT_AGENT_NAME,
      depth: this.depth,
    });
    this.policy = new LayeredPolicyEngine(parts.policy, parts.layers);
    this.offered = new OfferedTools(this.registry, this.policy, parts.layers);
    this.sink.on("diagnostic", (diagnostic: Diagnostic) => this.emit("diagnostic", diagnostic));
  }

  /** The model provider, if one was given or registered by a plugin. */
  get provider(): Provider | undefined {
    return this.providerRef.provider;
  }

  get sessionId(): string | undefined {
    return this.recorder?.id;
  }

  async resumeSession(sessionId: string): Promise<void> {
    const store = this.sessionStore;
    if (!store || !this.recorder)
      throw new UsageError(
        "session_not_found",
        "This agent has no session store (createAgent({ session: {} }) gives it one).",
      );
    if (this.running)
      throw new UsageError("run_in_progress", "A run is in progress; resume a session after it.");
    const loaded = await loadSession(store, sessionId, (diagnostic) => this.sink.add(diagnostic));
    if (!loaded)
      throw new UsageError(
        "session_not_found",
        `There is no session "${sessionId}" in this workspace.`,
      );
    this.conversation.replace(loaded);
    this.recorder.switchTo(sessionId);
  }

  get workspace(): string {
    return this.settings.workspace;
  }

  offeredTools(): readonly ToolDefinition[] {
    return this.offered.current();
  }

  systemPrompt(): string {
    return this.prompt.build(this.settings.systemPrompt).text;
  }

  diagnostics(): readonly Diagnostic[] {
    return this.sink.list();
  }

  sources(): SourceReport[] {
    return this.host.sourceReports();
  }

  whenSourcesStarted(): Promise<void> {
    return this.host.whenStarted();
  }

  get mode(): PermissionMode {
    return this.policy.mode;
  }

  setMode(mode: PermissionMode): void {
    const set = this.policy.setMode;
    if (!set)
      throw new UsageError<UsageErrorCode>(
        "mode_not_switchable",
        "This agent's policy engine cannot switch modes while it runs (it has no setMode).",
      );
    set(mode);
  }

  stream(prompt: string, options?: RunOptions): AgentStream {
    return streamRun(this, prompt, options);
  }

  run<T>(
    prompt: string,
    options: RunOptions & { output: OutputSchema<T> },
  ): Promise<StructuredRunResult<T>>;
  run(prompt: string, options?: RunOptions): Promise<RunResult>;
  async run(prompt: string, options: RunOptions = {}): Promise<RunResult> {
    if (this.closed)
      throw new UsageError("agent_closed", "This agent is closed; create a new one.");
    if (this.running) {
      // Two runs would interleave their turns in one conversation.
      throw new UsageError(
        "run_in_progress",
        "A run is already in progress on this agent; await it (or abort it) first.",
      );
    }
    const provider = this.requireProvider();
    const controller = new AbortController();
    const forward = () => controller.abort(options.signal?.reason);
    if (options.signal?.aborted) forward();
    else options.signal?.addEventListener("abort", forward, { once: true });
    this.running = controller;
    const fork = this.parts.fork;
    const span = this.tracer.startRun({
      prompt,
      provider,
      sessionId: this.sessionId,
      // A sub-agent's run is a child of the parent's call that started it.
      parent: fork?.parent.tracer.callContext(fork.tag.parentCallId),
    });
    try {
      const result = await this.loop(provider, prompt, options, controller.signal, span);
      span.end({
        turns: result.turns,
        stopReason: result.stopReason,
        toolCalls: result.toolCalls.length,
        usage: result.usage,
      });
      return result;
    } catch (error) {
      span.fail(error);
      throw error;
    } finally {
      this.running = undefined;
      options.signal?.removeEventListener("abort", forward);
    }
  }

  private async loop(
    provider: Provider,
    prompt: string,
    options: RunOptions,
    signal: AbortSignal,
    span: RunSpan,
  ): Promise<RunResult> {
    const maxTurns = options.maxTurns ?? this.settings.maxTurns;
    const journal = options.journal ?? IN_PROCESS_JOURNAL;
    const check = options.output ? new OutputCheck(await compileOutput(options.output)) : undefined;
    let output: { value: unknown } | undefined;
    // A repair request gets its turn even when it is the last one allowed.
    let repairing = false;
    const usage: ProviderUsage = {};
    const records: ToolCallRecord[] = [];
    if (this.hooks.has("beforeRun")) {
      const before = await this.hooks.beforeRun({ ...this.hookScope(), signal, prompt });
      if (before.deny !== undefined)
        throw new UsageError("run_blocked", `The prompt was blocked by a hook: ${before.deny}`);
      if (before.context.length > 0) prompt = [prompt, ...before.context].join("\n\n");
    }
    this.conversation.append({ role: "user", content: prompt });
    this.emit("run-start", { prompt });
    let text = "";
    let turn = 0;
    let stopReason: RunResult["stopReason"] = "max_turns";
    // The turn not yet in the session log: written as the next one starts, and at the end.
    let unsaved: ProviderUsage | undefined;
    try {
      while (turn < maxTurns || repairing) {
        if (unsaved) await this.recorder?.turn(unsaved);
        unsaved = undefined;
        if (signal.aborted) {
          stopReason = "aborted";
          break;
        }
        turn += 1;
        const tools = this.offered.current();
        const compaction = await this.compactFor(provider, tools, signal, false, turn, journal);
        if (compaction?.usage) addUsage(usage, compaction.usage);
        const estimatedTokens = this.context.estimate({
          system: this.systemPrompt(),
          messages: this.conversation.messages,
          tools,
        });
        this.emit("turn-start", { turn, tools: tools.map((tool) => tool.name), estimatedTokens });
        const answer = await journal.step(`turn-${turn}:model`, () =>
          this.modelTurn(provider, tools, turn, signal, check?.format, span),
        );
        addUsage(usage, answer.usage);
        const reported =
          (answer.usage.inputTokens ?? 0) +
          (answer.usage.cacheReadTokens ?? 0) +
          (answer.usage.cacheWriteTokens ?? 0);
        if (reported > 0) this.context.observe?.(estimatedTokens, reported);
        unsaved = answer.usage;
        text = answer.text;
        this.conversation.append({
          role: "assistant",
          text: answer.text,
          toolCalls: answer.toolCalls,
          ...(answer.providerData ? { providerData: answer.providerData } : {}),
        });
        this.emit("turn-end", {
          turn,
          text: answer.text,
          toolCalls: answer.toolCalls.length,
          stopReason: answer.stopReason,
          usage: answer.usage,
        });
        if (signal.aborted) {
          stopReason = "aborted";
          this.answerUnrunCalls(answer.toolCalls, turn, records, "cancelled");
          break;
        }
        if (answer.toolCalls.length === 0) {
          if (check) {
            const verdict = this.judgeOutput(check, answer.text, provider);
            if ("repair" in verdict) {
              this.emit("output-repair", { turn, issues: verdict.issues });
              this.conversation.append(verdict.repair);
              repairing = true;
              continue;
            }
            output = verdict;
          }
          stopReason = "end_turn";
          break;
        }
        repairing = false;
        const before = records.length;
        await this.toolCalls(
          answer.toolCalls,
          turn,
          signal,
          options.toolTimeoutMs,
          records,
          span,
          journal,
        );
        // What sub-agents spent is this run's too.
        for (const record of records.slice(before)) {
          const spent = record.result.metadata.sub_agent ? record.result.metadata.usage : undefined;
          if (spent && typeof spent === "object") addUsage(usage, spent as ProviderUsage);
        }
        if (signal.aborted) {
          stopReason = "aborted";
          break;
        }
      }
    } finally {
      // Also when the provider failed: the prompt (and any answer so far) is kept.
      await this.recorder?.turn(unsaved);
    }
    const result: RunResult = { text, turns: turn, toolCalls: records, stopReason, usage };
    if (output) result.output = output.value;
    this.emit("run-end", result);
    if (this.hooks.has("afterRun"))
      await this.hooks.afterRun(result, { ...this.hookScope(), signal });
    if (check && !output) throw check.missing(text, stopReason);
    return result;
  }

  async compact(options: { signal?: AbortSignal } = {}): Promise<ContextCompaction | undefined> {
    if (this.running)
      throw new UsageError("run_in_progress", "A run is in progress; compact after it.");
    const provider = this.requireProvider();
    return this.compactFor(
      provider,
      this.offered.current(),
      options.signal ?? new AbortController().signal,
      true,
      0,
    );
  }

  /** Compact before a model turn, or when asked (see compactConversation). */
  private compactFor(
    provider: Provider,
    tools: readonly ToolDefinition[],
    signal: AbortSignal,
    force: boolean,
    turn: number,
    journal: RunJournal = IN_PROCESS_JOURNAL,
  ): Promise<ContextCompaction | undefined> {
    this.compaction ??= {
      context: this.context,
      conversation: this.conversation,
      recorder: this.recorder,
      hooks: this.hooks,
      hookScope: () => this.hookScope(),
      systemPrompt: () => this.systemPrompt(),
      contextWindow: () => this.settings.contextWindow,
      emit: (event, payload) => this.emit(event, payload),
    };
    return compactConversation(this.compaction, { provider, tools, signal, force, turn, journal });
  }

  private compaction: CompactionDeps | undefined;

  async callTool(
    name: string,
    args: unknown,
    options: CallToolOptions = {},
  ): Promise<CallToolOutcome> {
    const call: ToolCall = { id: newCallId(), name, arguments: args };
    const records: ToolCallRecord[] = [];
    await this.toolCalls(
      [call],
      0,
      // No signal of our own when the caller gave none: nothing here would abort it.
      options.signal,
      options.timeoutMs,
      records,
      undefined,
      IN_PROCESS_JOURNAL,
      options.onProgress,
    );
    const { decision, approval, result } = records[0]!;
    return approval ? { decision, approval, result } : { decision, result };
  }

  resolve<T>(token: symbol | string | (abstract new (...args: never[]) => T)): T {
    const key = token as InjectionToken<T>;
    if (!this.container.isRegistered(key, true)) {
      const name = typeof token === "function" ? token.name : String(token);
      throw new ConfigError(
        "not_registered",
        `Nothing is registered for ${name} in this agent (is its plugin in the plugin list?).`,
      );
    }
    return this.container.resolve<T>(key);
  }

  fork(options: ForkOptions): Agent {
    const layers = new PolicyLayers(this.settings.workspace);
    if (options.tools) layers.add({ origin: `sub-agent ${options.name}`, only: options.tools });
    const tag: SubAgentTag = {
      agent: options.name,
      depth: this.depth + 1,
      parentCallId: options.parentCallId,
    };
    // Its own conversation, saved nowhere: the parent's session records the call's result.
    const { session: _parentSession, ...shared } = this.parts;
    const child = new DefaultAgent({
      ...shared,
      // Over this agent's whole policy (its layers included): a child can only narrow it.
      policy: this.policy,
      layers,
      providerRef: { provider: options.provider ?? this.providerRef.provider },
      settings: {
        ...this.settings,
        name: options.name,
        systemPrompt: options.instructions,
        maxTurns: options.maxTurns ?? this.settings.maxTurns,
      },
      fork: { depth: tag.depth, tag, parent: this },
    });
    child.forwardTo(this, tag);
    return child;
  }

  /** Re-emit every event on `parent`, tagged; a grandchild's keep their own tag. */
  private forwardTo(parent: DefaultAgent, tag: SubAgentTag): void {
    const emit = parent.emit.bind(parent) as (event: string, payload: unknown) => boolean;
    for (const event of RUN_EVENT_NAMES)
      this.on(event, ((payload: Record<string, unknown>) =>
        emit(event, payload.via ? payload : { ...payload, via: tag })) as never);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // A fork shares its parent's sources: closing it ends its runs, not the parent's servers.
    if (this.parts.fork) {
      this.running?.abort(new Error("sub-agent closed"));
      return;
    }
    // A run still going is aborted first, so its calls end before their sources close.
    this.running?.abort(new Error("agent closed"));
    await this.host.close();
  }

  private requireProvider(): Provider {
    const provider = this.providerRef.provider;
    if (!provider) {
      throw new ConfigError(
        "no_provider",
        "No model provider: pass `provider` to createAgent or add a provider plugin (CLI: --provider).",
      );
    }
    return provider;
  }

  /** A StructuredOutputError (the repair failed too) is reported like a model failure. */
  private judgeOutput(check: OutputCheck<unknown>, text: string, provider: Provider) {
    const format = check.format;
    try {
      return check.judge(
        text,
        provider.outputValue ? (value) => provider.outputValue!(value, format) : undefined,
      );
    } catch (error) {
      this.emit("error", { stage: "model", error });
      throw error;
    }
  }

  /** A sub-agent's hooks see the parent's session and the tag that says which sub-agent runs. */
  private hookScope(): Omit<HookScope, "signal"> {
    const fork = this.parts.fork;
    if (!fork) return { workspace: this.settings.workspace, sessionId: this.sessionId };
    return {
      workspace: this.settings.workspace,
      sessionId: fork.parent.hookScope().sessionId,
      subAgent: fork.tag,
    };
  }

  private async modelTurn(
    provider: Provider,
    tools: readonly ToolDefinition[],
    turn: number,
    signal: AbortSignal,
    output: OutputFormat | undefined,
    run: RunSpan,
  ) {
    let system = this.systemPrompt();
    if (this.hooks.has("beforeModelRequest"))
      system =
        (await this.hooks.beforeModelRequest({
          ...this.hookScope(),
          signal,
          turn,
          system,
          messages: this.conversation.messages,
          tools,
        })) ?? system;
    const messages = this.conversation.messages;
    const span = this.tracer.startModelRequest(run, provider, { system, messages, output, turn });
    try {
      const answer = await span.within(() =>
        runModelTurn(
          provider,
          { system, messages, tools, signal, ...(output ? { output } : {}) },
          turn,
          (text) => this.emit("text-delta", { turn, text }),
          (text) => this.emit("reasoning-delta", { turn, text }),
        ),
      );
      span.end(answer);
      return answer;
    } catch (error) {
      span.fail(error);
      this.emit("error", { stage: "model", error });
      throw error;
    }
  }

  /** One turn's calls through policy, approval and registry; results join the conversation. */
  private async toolCalls(
    calls: ToolCall[],
    turn: number,
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
    records: ToolCallRecord[],
    run: RunSpan | undefined,
    journal: RunJournal = IN_PROCESS_JOURNAL,
    onProgress?: ((progress: ToolProgress) => void) | undefined,
  ): Promise<void> {
    this.callDeps ??= this.makeCallDeps();
    const done = await runToolCalls(this.callDeps, calls, {
      turn,
      signal,
      timeoutMs,
      run,
      journal,
      onProgress,
    });
    for (const record of done.records) records.push(record);
    if (turn > 0) this.conversation.append(...done.messages);
  }

  private callDeps: ToolCallStepDeps | undefined;

  /** What every turn's calls share, made on the first call (see ToolCallStepDeps). */
  private makeCallDeps(): ToolCallStepDeps {
    const { policy, callbacks } = this;
    return {
      registry: this.registry,
      policy,
      // Read at each call: an approver may be set after the agent is made.
      get approve() {
        return callbacks.approve;
      },
      // Turn 0 is a direct callTool: no model reads it, so nothing is projected.
      adaptForModel: (result, turn) => {
        const provider = turn > 0 ? this.providerRef.provider : undefined;
        if (!provider) return result;
        return adaptResultContent(
          result,
          provider.toolResultContent,
          provider.acceptsContent?.bind(provider),
        );
      },
      listening: (event) => this.listenerCount(event) > 0,
      hooks: this.hooks,
      scope: () => this.hookScope(),
      agent: this,
      tracer: this.tracer,
      judge: (tool, args) => policy.decide(tool, args),
      ...(this.recorder ? { recordTask: (call, update) => this.recorder?.task(call, update) } : {}),
      emit: (event, payload) => (this.emit as (e: string, p: unknown) => boolean)(event, payload),
    };
  }

  /** Calls the model asked for but the run ended before: answer them so the history stays valid. */
  private answerUnrunCalls(
    calls: ToolCall[],
    turn: number,
    records: ToolCallRecord[],
    code: "cancelled",
  ): void {
    for (const call of calls) {
      const result = toolFailure(code, `Call to "${call.name}" was not run: the run was aborted.`);
      const decision = {
        verdict: "deny",
        reason: "Run aborted.",
        matched: { kind: "aborted" },
      } as const;
      records.push(toolCallRecord(call, turn, decision, result));
      this.conversation.append({ role: "tool", callId: call.id, toolName: call.name, result });
    }
  }
}

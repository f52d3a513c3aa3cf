import { EventEmitter } from "eventemitter3";
import type { DependencyContainer } from "tsyringe";
import type { ContextCompaction, ContextManager } from "../context/context-manager.js";
import type { AgentEvents } from "../contracts/agent-events.js";
import type { HookScope } from "../contracts/agent-hooks.js";
import type { AgentCallbacks } from "../contracts/callbacks.js";
import type { Diagnostic } from "../contracts/diagnostic.js";
import type { Message } from "../contracts/message.js";
import type { PermissionMode, PolicyEngine } from "../contracts/policy-engine.js";
import type { Provider } from "../contracts/provider.js";
import type { ToolDefinition } from "../contracts/tool-definition.js";
import { Conversation } from "../conversation/conversation.js";
import type { DiagnosticsSink } from "../diagnostics/diagnostics-sink.js";
import { ConfigError, UsageError, type UsageErrorCode } from "../errors.js";
import type { HookList } from "../hooks/hook-list.js";
import { IN_PROCESS_JOURNAL } from "../journal/run-journal.js";
import type { OutputSchema } from "../output/output-schema.js";
import type { PluginHost } from "../plugin/plugin-host.js";
import { LayeredPolicyEngine, type PolicyLayers } from "../policy/policy-layer.js";
import type { SystemPromptBuilder } from "../prompt/system-prompt.js";
import type { ToolRegistry } from "../registry/tool-registry.js";
import { loadSession } from "../session/load-session.js";
import type { SessionStore } from "../session/session-store.js";
import type { ToolOffer } from "../tool-search/tool-offer.js";
import { AgentTracer } from "../tracing/agent-tracer.js";
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
} from "./agent.js";
import type { AgentRuntime } from "./agent-runtime.js";
import { type AgentStream, streamRun } from "./agent-stream.js";
import { DIRECT_CALL } from "./call-origin.js";
import { compactConversation } from "./compaction-step.js";
import { type ForkLink, forkedParts, forkHookScope, forwardEvents } from "./fork-agent.js";
import { OfferedTools } from "./offered-tools.js";
import type { ProviderRef } from "./provider-ref.js";
import { resolveService } from "./resolve-service.js";
import { runLoop } from "./run-loop.js";
import { runToolCalls } from "./run-tool-calls.js";
import { SessionRecorder } from "./session-recorder.js";
import { toolCallDeps } from "./tool-call-step.js";

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
  fork?: ForkLink;
  /** The session the conversation is saved to, with the conversation it restored. */
  session?: {
    store: SessionStore;
    id: string;
    messages: Message[];
    /** Tools the session's conversation had found, in the order found. */
    found: string[];
    started: boolean;
  };
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
  /** What the stages of a run share (see AgentRuntime). */
  private readonly runtime: AgentRuntime;
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
    this.conversation = new Conversation(parts.session?.messages ?? [], parts.session?.found);
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
    this.offered = new OfferedTools(this.registry, this.policy, parts.layers, this.conversation, {
      settings: parts.settings,
      providerRef: this.providerRef,
      context: this.context,
      onFound: (found) => this.emit("tool-search", found),
    });
    this.sink.on("diagnostic", (diagnostic: Diagnostic) => this.emit("diagnostic", diagnostic));
    const emit = this.emit.bind(this) as AgentRuntime["emit"];
    this.runtime = {
      settings: this.settings,
      context: this.context,
      conversation: this.conversation,
      recorder: this.recorder,
      hooks: this.hooks,
      offered: this.offered,
      tracer: this.tracer,
      hookScope: () => this.hookScope(),
      systemPrompt: () => this.systemPrompt(),
      contextWindow: () => this.settings.contextWindow,
      emit,
      sourcesCurrent: () => this.host.whenCurrent(),
      calls: toolCallDeps({
        registry: this.registry,
        policy: this.policy,
        callbacks: this.callbacks,
        providerRef: this.providerRef,
        hooks: this.hooks,
        tracer: this.tracer,
        recorder: this.recorder,
        agent: this,
        toolSearch: this.offered.capability,
        offered: () => this.offered.reachable(),
        fork: (options) => this.fork(options),
        listening: (event) => this.listenerCount(event) > 0,
        scope: () => this.hookScope(),
        emit,
      }),
    };
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
    this.conversation.replace(loaded.messages, loaded.found);
    this.recorder.switchTo(sessionId);
  }

  get workspace(): string {
    return this.settings.workspace;
  }

  offeredTools(): readonly ToolDefinition[] {
    return this.offered.reachable();
  }

  toolOffer(): ToolOffer {
    return this.offered.offer();
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
      const result = await runLoop(
        this.runtime,
        provider,
        prompt,
        options,
        controller.signal,
        span,
      );
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

  async compact(options: { signal?: AbortSignal } = {}): Promise<ContextCompaction | undefined> {
    if (this.running)
      throw new UsageError("run_in_progress", "A run is in progress; compact after it.");
    return compactConversation(this.runtime, {
      provider: this.requireProvider(),
      tools: this.offered.current(),
      signal: options.signal ?? new AbortController().signal,
      force: true,
      turn: 0,
    });
  }

  async callTool(
    name: string,
    args: unknown,
    options: CallToolOptions = {},
  ): Promise<CallToolOutcome> {
    const done = await runToolCalls(
      this.runtime.calls,
      [{ id: newCallId(), name, arguments: args }],
      {
        origin: options.fromApp ? { kind: "app", source: options.fromApp.source } : DIRECT_CALL,
        // No signal of our own when the caller gave none: nothing here would abort it.
        signal: options.signal,
        timeoutMs: options.timeoutMs,
        journal: IN_PROCESS_JOURNAL,
        onProgress: options.onProgress,
        approver: options.approver,
      },
    );
    const { decision, approval, result } = done.records[0]!;
    return approval ? { decision, approval, result } : { decision, result };
  }

  resolve<T>(token: symbol | string | (abstract new (...args: never[]) => T)): T {
    return resolveService(this.container, token);
  }

  fork(options: ForkOptions): Agent {
    // Its own conversation, saved nowhere: the parent's session records the call's result.
    const { session: _parentSession, ...shared } = this.parts;
    const child = new DefaultAgent({
      ...shared,
      ...forkedParts(
        {
          depth: this.depth,
          policy: this.policy,
          provider: this.providerRef.provider,
          settings: this.settings,
          link: { tracer: this.tracer, hookScope: () => this.hookScope() },
        },
        options,
      ),
    });
    forwardEvents(child, this, child.parts.fork!.tag);
    return child;
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

  /** A sub-agent's hooks see the parent's session and the tag that says which sub-agent runs. */
  private hookScope(): Omit<HookScope, "signal"> {
    return forkHookScope(this.settings.workspace, this.sessionId, this.parts.fork);
  }
}

import type { DependencyContainer } from "tsyringe";
import type { SourceReport } from "../agent/agent.js";
import type { ProviderRef } from "../agent/provider-ref.js";
import type { LoadedConfig } from "../config/load-config.js";
import type { WorkspaceConsent } from "../consent/consent-store.js";
import type { AgentCallbacks } from "../contracts/callbacks.js";
import type { ToolChange, ToolSource } from "../contracts/tool-source.js";
import type { DiagnosticsSink } from "../diagnostics/diagnostics-sink.js";
import { errorMessage, PluginError } from "../errors.js";
import type { HookList } from "../hooks/hook-list.js";
import type { PolicyLayers } from "../policy/policy-layer.js";
import type { SystemPromptBuilder } from "../prompt/system-prompt.js";
import type { ToolRegistry } from "../registry/tool-registry.js";
import { type Disposable, toDisposable } from "../util/disposable.js";
import type { Plugin, PluginContext } from "./plugin.js";

/** Runs plugins' registration, starts their tool sources, and undoes it all on close. */
export interface PluginHost {
  sourceReports(): SourceReport[];
  /** Resolves once every source's start has settled, those started in the background too. */
  whenStarted(): Promise<void>;
  /**
   * Resolves once every source's tools are current (see `ToolSource.whenCurrent`), or after
   * `ms` (default 3 s): a source slow to list again must not stall a run. Undefined when all
   * are current.
   */
  whenCurrent(ms?: number): Promise<void> | undefined;
  close(): Promise<void>;
}

export interface PluginHostDeps {
  container: DependencyContainer;
  registry: ToolRegistry;
  sink: DiagnosticsSink;
  prompt: SystemPromptBuilder;
  layers: PolicyLayers;
  hooks: HookList;
  consent: WorkspaceConsent;
  config: LoadedConfig;
  toolEnv: Readonly<Record<string, string>>;
  workspace: string;
  callbacks: AgentCallbacks;
  providerRef: ProviderRef;
  strict: boolean;
  /** The creator's start-up signal: aborting it aborts every source's start. */
  signal?: AbortSignal;
  /** Bound on one source's close; one that never returns must not hang the agent. */
  closeTimeoutMs?: number;
}

const DEFAULT_CLOSE_TIMEOUT_MS = 10_000;

interface SourceEntry {
  source: ToolSource;
  plugin: string;
  subscription?: Disposable;
}

export class DefaultPluginHost implements PluginHost {
  private readonly sources = new Map<string, SourceEntry>();
  private readonly closeHooks: Array<{ plugin: string; fn: () => void | Promise<void> }> = [];
  private readonly startController = new AbortController();
  private closing: Promise<void> | undefined;
  private foreground: Promise<void> = Promise.resolve();
  private background: Promise<void> = Promise.resolve();

  constructor(private readonly deps: PluginHostDeps) {
    deps.signal?.addEventListener("abort", () => this.startController.abort(deps.signal?.reason), {
      once: true,
    });
  }

  /** Register plugins in dependency order. A failing plugin (and what depends on it) is skipped. */
  async registerPlugins(ordered: readonly Plugin[]): Promise<void> {
    const failed = new Set<string>();
    for (const plugin of ordered) {
      const missing = plugin.dependsOn.filter((name) => failed.has(name));
      if (missing.length > 0) {
        failed.add(plugin.name);
        this.deps.sink.add({
          stage: "plugin",
          severity: "error",
          code: "plugin_skipped",
          source: plugin.name,
          message: `Plugin "${plugin.name}" was skipped because "${missing.join('", "')}" failed.`,
        });
        continue;
      }
      const added: Disposable[] = [];
      try {
        await plugin.register(this.contextFor(plugin, added));
      } catch (error) {
        for (const disposable of added) disposable.dispose();
        const wrapped = new PluginError(
          "plugin_register_failed",
          `Plugin "${plugin.name}" failed to register: ${errorMessage(error)}`,
          { cause: error, details: { plugin: plugin.name } },
        );
        if (this.deps.strict) throw wrapped;
        failed.add(plugin.name);
        this.deps.sink.add({
          stage: "plugin",
          severity: "error",
          code: wrapped.code,
          source: plugin.name,
          message: wrapped.message,
        });
      }
    }
  }

  /**
   * Start every source at once; none waits for another. Failures become diagnostics. Sources
   * `background` picks are started too but not waited for: their tools join the registry when
   * they are ready, and their failures are diagnostics even in strict mode.
   */
  async startSources(background?: (sourceId: string) => boolean): Promise<void> {
    const all = [...this.sources.values()];
    const later = background ? all.filter((entry) => background(entry.source.id)) : [];
    const entries = all.filter((entry) => !later.includes(entry));
    this.background = this.startAll(later, false);
    this.foreground = this.startAll(entries, this.deps.strict);
    await this.foreground;
  }

  whenStarted(): Promise<void> {
    return Promise.allSettled([this.foreground, this.background]).then(() => undefined);
  }

  whenCurrent(ms = 3_000): Promise<void> | undefined {
    const pending: Promise<void>[] = [];
    for (const { source } of this.sources.values()) {
      const current = source.whenCurrent?.();
      if (current) pending.push(current);
    }
    if (pending.length === 0) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    return Promise.race([Promise.allSettled(pending).then(() => undefined), bound]).finally(() =>
      clearTimeout(timer),
    );
  }

  private async startAll(entries: readonly SourceEntry[], strict: boolean): Promise<void> {
    const outcomes = await Promise.allSettled(entries.map((entry) => this.startOne(entry)));
    const failures: string[] = [];
    outcomes.forEach((outcome, index) => {
      if (outcome.status === "fulfilled") return;
      const entry = entries[index]!;
      const message = `Tool source "${entry.source.id}" (plugin "${entry.plugin}") failed to start: ${errorMessage(outcome.reason)}`;
      failures.push(message);
      this.deps.sink.add({
        stage: "start",
        severity: "error",
        code: "source_start_failed",
        source: entry.source.id,
        message,
      });
    });
    if (strict && failures.length > 0) {
      throw new PluginError("source_start_failed", failures.join("\n"));
    }
  }

  sourceReports(): SourceReport[] {
    return [...this.sources.values()].map((entry) => ({
      id: entry.source.id,
      // Status messages carry server error text (a 401 body may echo credentials).
      status: this.deps.sink.redactor.redactValue(safeStatus(entry.source)),
    }));
  }

  close(): Promise<void> {
    this.closing ??= this.closeAll();
    return this.closing;
  }

  private async closeAll(): Promise<void> {
    this.startController.abort(new Error("agent closed"));
    const bound = this.deps.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
    await Promise.all(
      [...this.sources.values()].map(async (entry) => {
        entry.subscription?.dispose();
        const outcome = await withBound(entry.source.close(), bound);
        if (outcome !== "done") {
          this.deps.sink.add({
            stage: "close",
            severity: "warning",
            code: outcome === "timeout" ? "close_timeout" : "close_failed",
            source: entry.source.id,
            message:
              outcome === "timeout"
                ? `Tool source "${entry.source.id}" did not close within ${bound} ms; moved on.`
                : `Tool source "${entry.source.id}" failed to close: ${outcome.message}`,
          });
        }
        this.deps.registry.removeSource(entry.source.id);
      }),
    );
    for (const hook of [...this.closeHooks].reverse()) {
      const outcome = await withBound(Promise.resolve().then(hook.fn), bound);
      if (outcome !== "done") {
        this.deps.sink.add({
          stage: "close",
          severity: "warning",
          source: hook.plugin,
          message: `A close hook of plugin "${hook.plugin}" ${outcome === "timeout" ? "timed out" : `failed: ${outcome.message}`}.`,
        });
      }
    }
  }

  private async startOne(entry: SourceEntry): Promise<void> {
    const { source } = entry;
    await source.start({
      workspace: this.deps.workspace,
      signal: this.startController.signal,
      report: (diagnostic) =>
        this.deps.sink.add({ ...diagnostic, source: diagnostic.source ?? source.id }),
      registeredCount: () => this.deps.registry.toolsOf(source.id).length,
    });
    // Closed while starting: the source is being closed, so none of its tools may appear.
    if (this.closing) return;
    // The tools it has once started enter the registry once; changes it pushes from then on
    // are applied as they come. (What it pushed while starting is in `tools()` already.)
    const apply = (change: ToolChange) => this.deps.registry.applyChange(source.id, change);
    apply({ kind: "full", tools: source.tools() });
    entry.subscription = source.onDidChange(apply);
  }

  private contextFor(plugin: Plugin, added: Disposable[]): PluginContext {
    const { deps } = this;
    return {
      pluginName: plugin.name,
      container: deps.container,
      workspace: deps.workspace,
      config: deps.config,
      redactor: deps.sink.redactor,
      callbacks: deps.callbacks,
      providerRef: deps.providerRef,
      strict: deps.strict,
      consent: deps.consent,
      toolEnv: deps.toolEnv,
      report: (diagnostic) =>
        deps.sink.add({ ...diagnostic, source: diagnostic.source ?? plugin.name }),
      addToolSource: (source) => {
        if (!source || typeof source.id !== "string" || source.id === "") {
          throw new PluginError(
            "invalid_tool_source",
            `Plugin "${plugin.name}" added a tool source without an id.`,
          );
        }
        const existing = this.sources.get(source.id);
        if (existing) {
          throw new PluginError(
            "duplicate_tool_source",
            `Plugin "${plugin.name}" added tool source "${source.id}", which plugin "${existing.plugin}" already added.`,
          );
        }
        this.sources.set(source.id, { source, plugin: plugin.name });
        const disposable = toDisposable(() => {
          this.sources.delete(source.id);
          deps.registry.removeSource(source.id);
        });
        added.push(disposable);
        return disposable;
      },
      addSystemPromptSection: (section) => {
        const disposable = deps.prompt.add({ ...section, source: section.source ?? plugin.name });
        added.push(disposable);
        return disposable;
      },
      addPolicyLayer: (layer) => {
        const disposable = deps.layers.add(layer);
        added.push(disposable);
        return disposable;
      },
      addHooks: (hooks) => {
        const disposable = deps.hooks.add(hooks, plugin.name);
        added.push(disposable);
        return disposable;
      },
      onClose: (fn) => {
        this.closeHooks.push({ plugin: plugin.name, fn });
      },
    };
  }
}

function safeStatus(source: ToolSource) {
  try {
    return source.status();
  } catch (error) {
    return {
      state: "failed" as const,
      stats: {},
      parts: [{ name: source.id, state: "failed", message: errorMessage(error) }],
    };
  }
}

async function withBound(work: Promise<unknown>, ms: number): Promise<"done" | "timeout" | Error> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  try {
    return await Promise.race([
      work.then(
        () => "done" as const,
        (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

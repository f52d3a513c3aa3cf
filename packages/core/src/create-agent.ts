import "reflect-metadata";
import path from "node:path";
import { container as rootContainer } from "tsyringe";
import { type Agent, DEFAULT_AGENT_NAME } from "./agent/agent.js";
import { type AgentParts, DefaultAgent } from "./agent/default-agent.js";
import type { ProviderRef } from "./agent/provider-ref.js";
import { readAgentSection } from "./config/agent-section.js";
import { throwOnBlocking } from "./config/blocking-diagnostics.js";
import { readToolEnv } from "./config/env-section.js";
import { type LoadConfigOptions, LoadedConfig, loadConfig } from "./config/load-config.js";
import { loadZod } from "./config/zod-schema.js";
import type { ProjectApprovals } from "./consent/consent-store.js";
import { workspaceConsent } from "./consent/default-consent.js";
import { ContextManager } from "./context/context-manager.js";
import { DefaultContextManager } from "./context/default-context-manager.js";
import type { AgentHooks } from "./contracts/agent-hooks.js";
import type { AgentCallbacks, Approver, Elicitor } from "./contracts/callbacks.js";
import type { Diagnostic } from "./contracts/diagnostic.js";
import { PolicyEngine } from "./contracts/policy-engine.js";
import { Provider } from "./contracts/provider.js";
import type { Tool } from "./contracts/tool.js";
import { DefaultDiagnosticsSink } from "./diagnostics/diagnostics-sink.js";
import { HookList } from "./hooks/hook-list.js";
import { agentPlugins } from "./plugin/agent-plugins.js";
import type { Plugin } from "./plugin/plugin.js";
import { DefaultPluginHost } from "./plugin/plugin-host.js";
import { DefaultPolicyEngine } from "./policy/default-policy-engine.js";
import { buildPolicySettings } from "./policy/permissions-section.js";
import { PolicyLayers } from "./policy/policy-layer.js";
import type { PolicyOptions } from "./policy/policy-settings.js";
import {
  DefaultSystemPromptBuilder,
  type SystemPromptBudget,
} from "./prompt/default-system-prompt-builder.js";
import { type ProviderRegistry, providerFromRegistry } from "./provider/provider-registry.js";
import { DefaultToolRegistry } from "./registry/default-tool-registry.js";
import { ToolRegistry, type ToolRegistryOptions } from "./registry/tool-registry.js";
import { openSession } from "./session/open-session.js";
import type { SessionStore } from "./session/session-store.js";
import { DefaultSkillCatalog } from "./skills/default-skill-catalog.js";
import { SkillCatalog } from "./skills/skill-catalog.js";
import {
  resolveToolSearchSettings,
  type ToolSearchMode,
  type ToolSearchOptions,
} from "./tool-search/tool-search-options.js";
import {
  mergeToolSearchOptions,
  readToolSearchSection,
} from "./tool-search/tool-search-section.js";
import { resolveTracer, type TracingOptions } from "./tracing/tracing-options.js";

export const DEFAULT_MAX_TURNS = 20;

/** Where `createAgent` reads config from, and what it does with a config that is wrong. */
export interface ConfigOptions extends Omit<LoadConfigOptions, "workspace"> {
  /** A config loaded already (the CLI's); default: read the user and project files. */
  loaded?: LoadedConfig | undefined;
  /**
   * A problem in a section that can restrict the agent (a misspelt key in `permissions`, a
   * broken config file): `throw` (default) rejects with a `ConfigError` listing each, with file
   * and line, before anything starts; `diagnose` reports them as diagnostics and goes on with
   * what could be read (deny rules that parsed still stand).
   */
  onError?: "throw" | "diagnose" | undefined;
}

export interface CreateAgentOptions {
  /** Root for config, tools and policy paths. Default: `process.cwd()`. */
  workspace?: string | undefined;
  /**
   * The model: a provider (`openai({ model })`), or the name of one of `providers` with an
   * optional model (`"openai"`, `"anthropic:claude-sonnet-4-5"`). Optional when `providers` and
   * the config's `provider.name` choose one, when a provider plugin registers one, or for
   * tool-only use.
   */
  provider?: Provider | string | undefined;
  /**
   * Providers by name (`{ openai, anthropic }` from the provider packages, or factories of your
   * own), so `provider: "openai:gpt-5"` or the config's `provider: { name, model, … }` selects
   * one, as `--provider` does in the CLI. The config's settings (model, base URL, key variable,
   * limits) are passed to the factory; a workspace's endpoint and key variable only once the
   * user approved them. See docs/providers.md.
   */
  providers?: ProviderRegistry | undefined;
  plugins?: readonly Plugin[] | undefined;
  /**
   * Tools given inline (`defineTool(...)`): a static source is made for them (id `code`, or
   * each tool's own `source`), so one tool needs no plugin. A list that is not tools, or two
   * tools with one name, throws `PluginError` `invalid_tool`.
   */
  tools?: readonly Tool[] | undefined;
  /** Policy from code; combined with the config's `permissions` section. */
  policy?: PolicyOptions | undefined;
  /** Replace the default policy engine. */
  policyEngine?: PolicyEngine | undefined;
  /** For `ask` decisions. Absent: every `ask` is denied. */
  approve?: Approver | undefined;
  /** For elicitation requests (MCP). Absent: every request is declined. */
  elicit?: Elicitor | undefined;
  /** Base system prompt; plugin sections are added after it. */
  systemPrompt?: string | undefined;
  /**
   * Configuration: a loaded config, options for loading one, or `false` for none.
   * Default: load the user and project layers for the workspace.
   */
  config?: LoadedConfig | ConfigOptions | false | undefined;
  /** Throw on plugin or source start-up failures instead of reporting diagnostics. */
  strict?: boolean | undefined;
  maxTurns?: number | undefined;
  /** Registry default timeout (lowest precedence). */
  toolTimeoutMs?: number | undefined;
  /** How long a timed-out tool may take to report its own result. */
  abortGraceMs?: number | undefined;
  /**
   * Tool calls running at once, agent-wide (runs, sub-agents' calls through this registry and
   * `agent.callTool` alike); more wait, in order, for a free slot. Default 64; config
   * `agent.max_concurrent_calls`.
   */
  maxConcurrentCalls?: number | undefined;
  systemPromptBudget?: SystemPromptBudget | undefined;
  /** Aborts start-up (slow servers): sources see it, and createAgent closes and rejects. */
  signal?: AbortSignal | undefined;
  /** Bound on each source's close (default 10 s); a close that never returns is left behind. */
  closeTimeoutMs?: number | undefined;
  /**
   * What the workspace's own files may start: `remembered` (default) runs only what the user
   * approved for this workspace (`pseudoclaude mcp approve`, kept in
   * `~/.PseudoClaude/approvals.json`), `all` approves everything for this agent only (the CLI's
   * `--yes`), or pass a `ConsentStore` of your own (`@pseudoclaude/core/consent`).
   */
  projectApprovals?: ProjectApprovals | undefined;
  /**
   * Sources to start without waiting for them (a chat starting before slow MCP servers are
   * up): `createAgent` returns once the others are ready, these join the registry when they
   * are (registry events say so), and their failures are diagnostics, also in strict mode.
   * `agent.whenSourcesStarted()` waits for all.
   */
  backgroundSources?: ((sourceId: string) => boolean) | undefined;
  /**
   * Save the conversation as a session, turn by turn, and continue one: with `id` of a session
   * the store has, its conversation is restored; with a new `id` (or none: a random one) a new
   * session starts. `store` defaults to a plugin's `SessionStore`, else a `FileSessionStore`
   * under `~/.PseudoClaude/sessions/`. Without `session` nothing is saved. See docs/sessions.md.
   */
  session?: { id?: string | undefined; store?: SessionStore | undefined } | undefined;
  /**
   * Keeps long conversations within the model's context window. Default: a plugin's
   * `ContextManager`, else `DefaultContextManager` with the config's `agent.compact_threshold`
   * (0.8). See docs/context.md.
   */
  contextManager?: ContextManager | undefined;
  /** The model's context window in tokens, over the provider's own (config `agent.context_window`). */
  contextWindow?: number | undefined;
  /**
   * Hooks around the loop: guard, rewrite or log tool calls, model requests and runs. They run
   * before those plugins add. See docs/hooks.md.
   */
  hooks?: AgentHooks | undefined;
  /**
   * OpenTelemetry spans for runs, model requests and tool calls, through the global tracer
   * provider unless one is given here; nothing is recorded while none is registered. See
   * docs/tracing.md.
   */
  tracing?: TracingOptions | undefined;
  /** The agent's name in traces (`gen_ai.agent.name`). Default `pseudoclaude`. */
  name?: string | undefined;
  /**
   * Wide tool sets: which tools the model is sent up front and which it finds through tool
   * search. `auto` (default) defers MCP tools once the offered set passes the provider's tool
   * limit or a tenth of the context window; `always`; `never`. Or an object with `engine`
   * (`auto` | `provider` | `local`), `pin` and thresholds. Over the config's `tool_search`
   * section. See docs/tool-search.md.
   */
  toolSearch?: ToolSearchMode | ToolSearchOptions | undefined;
}

/**
 * Build an agent: a child DI container of its own, config, registry, policy and prompt;
 * plugins registered in dependency order; every tool source started concurrently.
 */
export async function createAgent(options: CreateAgentOptions = {}): Promise<Agent> {
  const parts = await assemble(options);
  const { workspace, sink, report, agentSection, homeDir, container, providerRef } = parts;
  const { registry, hooks, layers, prompt, callbacks, host } = await registered(options, parts);
  try {
    // Before anything starts: a section that could restrict the agent and did not parse must
    // not leave it running with less restriction than the user wrote.
    if (configOnError(options.config) === "throw") throwOnBlocking(sink.list());
    await host.startSources(options.backgroundSources);
    options.signal?.throwIfAborted();
  } catch (error) {
    await host.close();
    throw error;
  }
  let session: AgentParts["session"];
  try {
    session = options.session
      ? await openSession(options.session, container, workspace, homeDir, report)
      : undefined;
  } catch (error) {
    await host.close();
    throw error;
  }
  const contextManager =
    options.contextManager ??
    (container.isRegistered(ContextManager, true)
      ? container.resolve<ContextManager>(ContextManager)
      : new DefaultContextManager(
          agentSection.compact_threshold !== undefined
            ? { threshold: agentSection.compact_threshold }
            : {},
        ));
  const contextWindow = options.contextWindow ?? agentSection.context_window;
  const toolSearch = resolveToolSearchSettings(
    mergeToolSearchOptions(parts.toolSearchSection, options.toolSearch),
  );
  return new DefaultAgent({
    ...(session ? { session } : {}),
    context: contextManager,
    hooks,
    tracing: resolveTracer(options.tracing),
    registry,
    // A plugin may have registered its own engine in place of the default.
    policy: container.resolve<PolicyEngine>(PolicyEngine),
    layers,
    providerRef,
    prompt,
    sink,
    settings: {
      name: options.name ?? DEFAULT_AGENT_NAME,
      workspace,
      systemPrompt: options.systemPrompt ?? "",
      maxTurns: options.maxTurns ?? agentSection.max_turns ?? DEFAULT_MAX_TURNS,
      ...(contextWindow !== undefined ? { contextWindow } : {}),
      toolSearch,
    },
    callbacks,
    host,
    container,
  });
}

/** The config, diagnostics and container an agent is built from, before any plugin runs. */
async function assemble(options: CreateAgentOptions) {
  const workspace = path.resolve(options.workspace ?? process.cwd());
  const config = resolveConfig(options.config, workspace);
  const sink = new DefaultDiagnosticsSink();
  for (const diagnostic of config.diagnostics) sink.add(diagnostic);
  const report = (diagnostic: Parameters<typeof sink.add>[0]) => sink.add(diagnostic);
  // Config and plugins' schemas are built from the ES copy of zod (see loadZod).
  await loadZod();
  const agentSection = readAgentSection(config, report);
  const toolSearchSection = readToolSearchSection(config, report);
  const homeDir = configHomeDir(options.config);
  const container = rootContainer.createChildContainer();
  const providerRef: ProviderRef = {
    provider: typeof options.provider === "string" ? undefined : options.provider,
  };
  return {
    workspace,
    config,
    sink,
    report,
    agentSection,
    toolSearchSection,
    homeDir,
    container,
    providerRef,
  };
}

type Assembled = Awaited<ReturnType<typeof assemble>>;

/**
 * Registry, policy, prompt and hooks built, and every plugin registered; nothing started yet.
 * A plugin that throws closes what was registered.
 */
async function registered(options: CreateAgentOptions, parts: Assembled) {
  const { workspace, config, sink, report, agentSection, homeDir, container, providerRef } = parts;
  const consent = workspaceConsent(options.projectApprovals ?? "remembered", workspace, homeDir);
  // Choosing a provider by name reads the `provider` section: its plugin claims and checks it.
  const choosesProvider = options.providers !== undefined || typeof options.provider === "string";
  const ordered = agentPlugins(options.plugins ?? [], options.tools, choosesProvider);

  // The container holds what plugins share and may replace (the registry, the policy engine,
  // the provider, plugins' own APIs); everything else is built here and passed by hand.
  const callbacks: AgentCallbacks = {};
  if (options.approve) callbacks.approve = options.approve;
  if (options.elicit) callbacks.elicit = options.elicit;
  const registryOptions: ToolRegistryOptions = { workspace, redactor: sink.redactor };
  const timeout = options.toolTimeoutMs ?? agentSection.tool_timeout_ms;
  if (timeout !== undefined) registryOptions.defaultTimeoutMs = timeout;
  if (options.abortGraceMs !== undefined) registryOptions.abortGraceMs = options.abortGraceMs;
  const maxConcurrentCalls = options.maxConcurrentCalls ?? agentSection.max_concurrent_calls;
  if (maxConcurrentCalls !== undefined) registryOptions.maxConcurrentCalls = maxConcurrentCalls;
  const registry = new DefaultToolRegistry(registryOptions);
  registry.on("diagnostic", report);
  container.registerInstance(ToolRegistry, registry);
  // Where plugins that bring skills from elsewhere (MCP) meet the one that offers skills.
  container.registerInstance(SkillCatalog, new DefaultSkillCatalog());
  container.registerInstance(
    PolicyEngine,
    options.policyEngine ??
      new DefaultPolicyEngine(
        buildPolicySettings(config, options.policy, workspace, report, consent),
      ),
  );
  const budget = options.systemPromptBudget ?? {};
  const prompt = new DefaultSystemPromptBuilder({
    totalChars: budget.totalChars ?? agentSection.system_prompt_budget_chars,
    sectionChars: budget.sectionChars,
  });
  const layers = new PolicyLayers(workspace);
  const hooks = new HookList(report);
  if (options.hooks) hooks.add(options.hooks, "code");
  const toolEnv = readToolEnv(config, consent);
  toolEnv.diagnostics.forEach(report);
  const host = new DefaultPluginHost({
    container,
    toolEnv: toolEnv.env,
    registry,
    sink,
    prompt,
    layers,
    hooks,
    consent,
    config,
    workspace,
    callbacks,
    providerRef,
    strict: options.strict ?? false,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.closeTimeoutMs !== undefined ? { closeTimeoutMs: options.closeTimeoutMs } : {}),
  });

  try {
    await host.registerPlugins(ordered);
    if (choosesProvider && !providerRef.provider)
      providerRef.provider = await providerFromRegistry(
        options.providers ?? {},
        typeof options.provider === "string" ? options.provider : undefined,
        config,
        consent,
      );
    // A provider plugin registers the Provider token; an explicit option wins.
    if (!providerRef.provider && container.isRegistered(Provider)) {
      providerRef.provider = container.resolve<Provider>(Provider);
    }
    for (const unknown of config.unclaimedKeys()) {
      sink.add({
        stage: "config",
        severity: "warning",
        code: "unknown_section",
        layer: unknown.layer,
        item: unknown.key,
        ...unknown.position,
        message: `Unknown config section "${unknown.key}" (no plugin reads it); check the spelling.`,
      });
    }
  } catch (error) {
    await host.close();
    throw error;
  }
  return { registry, hooks, layers, prompt, callbacks, host };
}

/**
 * Every diagnostic an agent with these options would report before it starts anything: the
 * config files, each section as its owner reads it (the same readers, so nothing can differ
 * from a real run), unknown sections, what waits for the user's consent. No source is started
 * and no process spawned. What `pseudoclaude config` lists.
 */
export async function checkConfig(
  options: CreateAgentOptions = {},
): Promise<readonly Diagnostic[]> {
  const parts = await assemble(options);
  const { host } = await registered(options, parts);
  await host.close();
  return parts.sink.list();
}

function resolveConfig(option: CreateAgentOptions["config"], workspace: string): LoadedConfig {
  if (option === false) return LoadedConfig.empty();
  if (option instanceof LoadedConfig) return option;
  if (option?.loaded) return option.loaded;
  const { onError: _onError, loaded: _loaded, ...load } = option ?? {};
  return loadConfig({ ...load, workspace });
}

function configHomeDir(option: CreateAgentOptions["config"]): string | undefined {
  return option && !(option instanceof LoadedConfig) ? option.homeDir : undefined;
}

function configOnError(option: CreateAgentOptions["config"]): "throw" | "diagnose" {
  return option && !(option instanceof LoadedConfig) ? (option.onError ?? "throw") : "throw";
}

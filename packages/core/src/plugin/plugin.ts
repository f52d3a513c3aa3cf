import type { DependencyContainer } from "tsyringe";
import type { ProviderRef } from "../agent/provider-ref.js";
import type { ConfigSectionSpec } from "../config/config-section.js";
import type { LoadedConfig } from "../config/load-config.js";
import type { WorkspaceConsent } from "../consent/consent-store.js";
import type { PluginTrust } from "../consent/widening.js";
import type { AgentHooks } from "../contracts/agent-hooks.js";
import type { AgentCallbacks } from "../contracts/callbacks.js";
import type { Diagnostic } from "../contracts/diagnostic.js";
import type { ToolSource } from "../contracts/tool-source.js";
import type { Redactor } from "../diagnostics/redactor.js";
import { PluginError } from "../errors.js";
import type { PolicyLayer } from "../policy/policy-layer.js";
import type { SystemPromptSection } from "../prompt/system-prompt.js";
import type { Disposable } from "../util/disposable.js";

/** What a plugin gets when it registers. Everything it adds is undone on `agent.close()`. */
export interface PluginContext {
  readonly pluginName: string;
  /**
   * The agent's own container (a child container: nothing is global), for services plugins
   * share and may replace: `ToolRegistry`, `PolicyEngine`, `Provider`, and plugins' own APIs
   * (register yours under a token named like its interface). Facts of this agent are the
   * fields below, not container entries.
   */
  readonly container: DependencyContainer;
  readonly workspace: string;
  readonly config: LoadedConfig;
  /** Mark secret values (tokens, header values) so they never show in diagnostics. */
  readonly redactor: Redactor;
  /** Person-facing callbacks (approval, elicitation) as the agent's creator passed them. */
  readonly callbacks: AgentCallbacks;
  /** The agent's provider, once known (for features such as MCP sampling). */
  readonly providerRef: ProviderRef;
  /** Whether start-up failures should throw rather than become diagnostics. */
  readonly strict: boolean;
  /**
   * The user's approvals for this workspace. Ask it before running anything the workspace's
   * own files ask for (a project config's stdio server): a cloned repository must not run code
   * on the first start.
   */
  readonly consent: WorkspaceConsent;
  /**
   * Variables for every process a tool starts (a command, a stdio server, a hook), from the
   * config's `env` (Claude Code's `env` too), the workspace's only once approved. Never this
   * process's own environment.
   */
  readonly toolEnv: Readonly<Record<string, string>>;
  report(diagnostic: Omit<Diagnostic, "source"> & { source?: string | undefined }): void;
  addToolSource(source: ToolSource): Disposable;
  addSystemPromptSection(
    section: Omit<SystemPromptSection, "source"> & { source?: string },
  ): Disposable;
  /**
   * Add a policy layer (pre-approved patterns, or a narrowing to some tools) until the returned
   * disposer runs; it applies over whichever engine the agent has. A pattern that does not
   * parse throws `ConfigError` `invalid_rule`.
   */
  addPolicyLayer(layer: PolicyLayer): Disposable;
  /** Add hooks around the loop (tool calls, model requests, runs); they run after the code's. */
  addHooks(hooks: AgentHooks): Disposable;
  /** Run on `agent.close()`, in reverse registration order. */
  onClose(fn: () => void | Promise<void>): void;
}

/** A plugin: a name, what it needs, and what it registers. */
export interface Plugin {
  readonly name: string;
  readonly dependsOn: readonly string[];
  register(context: PluginContext): void | Promise<void>;
  /**
   * The settings of this plugin a workspace may use only with the user's consent, and what a
   * workspace asks for now; `pseudoclaude trust` lists and approves them.
   */
  readonly trust?: PluginTrust;
  /** The config sections this plugin reads, and how (`pseudoclaude config` merges by them). */
  readonly sections?: readonly ConfigSectionSpec[];
}

export interface PluginSpec {
  name: string;
  dependsOn?: readonly string[] | undefined;
  register(context: PluginContext): void | Promise<void>;
  trust?: PluginTrust | undefined;
  sections?: readonly ConfigSectionSpec[] | undefined;
}

const PLUGIN_NAME = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)?$/;

/** Declare a plugin. Misuse fails here, with the plugin's name in the message. */
export function definePlugin(spec: PluginSpec): Plugin {
  if (!spec || typeof spec !== "object") {
    throw new PluginError("invalid_plugin", "definePlugin needs an object { name, register }.");
  }
  const label = typeof spec.name === "string" && spec.name ? `Plugin "${spec.name}"` : "A plugin";
  if (typeof spec.name !== "string" || !PLUGIN_NAME.test(spec.name)) {
    throw new PluginError(
      "invalid_plugin",
      `${label}: name must be lower-case letters, digits, ".", "_" or "-" (got ${JSON.stringify(spec.name)}).`,
      { details: { plugin: spec.name } },
    );
  }
  if (typeof spec.register !== "function") {
    throw new PluginError("invalid_plugin", `${label}: register must be a function.`, {
      details: { plugin: spec.name },
    });
  }
  const dependsOn = spec.dependsOn ?? [];
  if (
    !Array.isArray(dependsOn) ||
    dependsOn.some((name) => typeof name !== "string" || name === "")
  ) {
    throw new PluginError("invalid_plugin", `${label}: dependsOn must be a list of plugin names.`, {
      details: { plugin: spec.name },
    });
  }
  if (dependsOn.includes(spec.name)) {
    throw new PluginError("invalid_plugin", `${label} cannot depend on itself.`, {
      details: { plugin: spec.name },
    });
  }
  if (
    spec.trust !== undefined &&
    (typeof spec.trust?.requests !== "function" || !Array.isArray(spec.trust?.widening))
  ) {
    throw new PluginError(
      "invalid_plugin",
      `${label}: trust must be { widening: [...], requests(context) }.`,
      { details: { plugin: spec.name } },
    );
  }
  return Object.freeze({
    name: spec.name,
    dependsOn: Object.freeze([...dependsOn]),
    register: spec.register,
    ...(spec.trust ? { trust: spec.trust } : {}),
    ...(spec.sections ? { sections: Object.freeze([...spec.sections]) } : {}),
  });
}

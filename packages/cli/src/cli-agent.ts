import { stat } from "node:fs/promises";
import path from "node:path";
import type { TracerProvider } from "@opentelemetry/api";
import { claudeCodeLayers } from "@pseudoclaude/compat-claude-code";
import {
  type Agent,
  type Approver,
  type CreateAgentOptions,
  createAgent,
  type Elicitor,
  formatDiagnostic,
  type LoadedConfig,
  loadConfig,
  type Provider,
  type SessionStore,
} from "@pseudoclaude/core";
import {
  type ProjectApprovals,
  type WorkspaceConsent,
  workspaceConsent,
} from "@pseudoclaude/core/consent";
import { type CallbackOptions, createApprover, createElicitor } from "./approval.js";
import { CliUsageError } from "./cli-errors.js";
import { type CliIo, isInteractive, writeLine } from "./cli-io.js";
import type { CliFlags } from "./cli-options.js";
import { type DefaultPluginOptions, defaultPlugins } from "./default-plugins.js";
import { parseCodeMode, parseMode, parseToolSearchMode } from "./flag-values.js";
import { loadPluginModules } from "./load-plugins.js";
import { environmentPlugin } from "./prompt/environment-plugin.js";
import { readGitState } from "./prompt/git-state.js";
import { chooseSystemPrompt } from "./prompt/system-prompt-choice.js";
import { type Prompter, ReadlinePrompter } from "./prompter.js";
import { chooseSession } from "./session-flags.js";
import { NO_TRACING, startCliTracing } from "./tracing/cli-tracing.js";

/** What a command needs to start an agent. */
export interface CliAgentOptions {
  flags: CliFlags;
  io: CliIo;
  /**
   * Chooses the model once the config is loaded (`run`, `chat`, `serve`); `consent` says which
   * of the workspace's provider settings the user approved.
   */
  provider?: (
    config: LoadedConfig,
    consent: WorkspaceConsent,
  ) => Provider | undefined | Promise<Provider | undefined>;
  /** A command's own approver (chat's y/a/n prompt) instead of the default one. */
  approver?: (callbacks: CallbackOptions) => Approver | undefined;
  /** A command's own answer to servers' questions (the studio's page) instead of the default. */
  elicitor?: Elicitor | undefined;
  /**
   * Where the agent's spans go when the command does not trace to a file or an exporter (the
   * studio keeps them in memory for its Traces page).
   */
  tracerProvider?: TracerProvider | undefined;
  /**
   * What the command changes in the default plugins (the studio renders MCP Apps; the gateway
   * does when its config says so, hence a function of the loaded config).
   */
  plugins?:
    | (Omit<DefaultPluginOptions, "mcpAppHost"> & {
        mcpAppHost?: boolean | ((config: LoadedConfig) => boolean) | undefined;
      })
    | undefined;
  /** Who asks the person questions (chat's own line input); default: a readline on stdin. */
  prompter?: Prompter;
  /** More createAgent options (chat starts MCP servers in the background). */
  agent?: Pick<CreateAgentOptions, "backgroundSources">;
  /** Save the conversation as a session (`run`, `chat`): new, `--continue` or `--resume ID`. */
  sessions?: boolean;
  /**
   * Keep the conversation in this store under this id, instead of a saved session the flags
   * choose (a durable worker: the session object's own state).
   */
  store?: { id: string; store: SessionStore };
  /** The command traces (`--trace FILE`, or the `OTEL_*` variables): `run`, `chat`, `call`. */
  traced?: boolean;
  /**
   * Go on past a config problem in a section that restricts the agent, as a diagnostic: only
   * for commands that list and call nothing (`tools`, `skills`), so a person can see it.
   * `run`, `call` and `chat` stop with exit 2 instead.
   */
  diagnoseConfig?: boolean;
  /**
   * The command talks to a model (`run`, `chat`, `studio`): its agent gets the CLI's base
   * system prompt and the environment's facts, or what `--system-prompt` and
   * `--append-system-prompt` say.
   */
  systemPrompt?: boolean;
}

/** A started agent plus what the CLI opened around it. */
export interface CliAgent {
  readonly agent: Agent;
  /** Whether the agent continues a saved session (`--continue`, `--resume`). */
  readonly resumed: boolean;
  /** Close the agent (ending child processes) and stop reading stdin. */
  close(): Promise<void>;
}

/**
 * Start an agent the way every command does: config layers, default plus `--plugin`
 * plugins, `--mode` as code policy and `--tool-search` as the tool-search mode (both beat the
 * config), approval and elicitation callbacks.
 * Flags are checked before any plugin starts, so a usage error never spawns a server.
 */
export async function openCliAgent(options: CliAgentOptions): Promise<CliAgent> {
  const { flags, io } = options;
  const mode = parseMode(flags.mode);
  const toolSearch = parseToolSearchMode(flags["tool-search"]);
  const codeModeFlag = parseCodeMode(flags["code-mode"]);
  const { workspace, config } = await loadCliConfig(flags, io);
  const saved = options.store
    ? { ...options.store, resumed: false }
    : options.sessions
      ? await chooseSession(flags, workspace)
      : undefined;
  const approvals = projectApprovals(flags);
  const provider = await options.provider?.(
    config,
    workspaceConsent(approvals, workspace, undefined),
  );
  const prompt = options.systemPrompt ? chooseSystemPrompt(flags, config) : undefined;
  const appHost = options.plugins?.mcpAppHost;
  const plugins = [
    ...defaultPlugins({
      ...options.plugins,
      mcpAppHost: typeof appHost === "function" ? appHost(config) : appHost,
      ...(flags["no-instructions"] ? { instructions: { enabled: false } } : {}),
      ...(codeModeFlag ? { codeMode: codeModeFlag } : {}),
    }),
    // git runs while the rest of the agent is assembled.
    ...(prompt?.environment ? [environmentPlugin(readGitState(workspace))] : []),
    ...(await loadPluginModules(flags.plugin ?? [], io.cwd)),
  ];
  const tracing = options.traced
    ? await startCliTracing({
        file: flags.trace,
        cwd: io.cwd,
        workspace,
        env: process.env,
        stderr: io.stderr,
      })
    : NO_TRACING;
  const tracerProvider = tracing.tracerProvider ?? options.tracerProvider;
  const prompter = options.prompter ?? new ReadlinePrompter(io);
  const callbacks = {
    yes: flags.yes ?? false,
    interactive: isInteractive(io),
    prompter,
    stderr: io.stderr,
  };
  const elicitor =
    options.elicitor ?? (callbacks.interactive ? createElicitor(callbacks) : undefined);
  let agent: Agent;
  try {
    agent = await createAgent({
      workspace,
      plugins,
      config: options.diagnoseConfig ? { loaded: config, onError: "diagnose" } : config,
      provider,
      ...(prompt ? { systemPrompt: prompt.text } : {}),
      policy: mode ? { mode } : undefined,
      // A mode alone: the config's other tool_search settings (pins, thresholds) still hold.
      ...(toolSearch ? { toolSearch } : {}),
      approve: (options.approver ?? createApprover)(callbacks),
      ...options.agent,
      ...(saved ? { session: { store: saved.store, ...(saved.id ? { id: saved.id } : {}) } } : {}),
      // Without a terminal nobody can answer: servers are not offered elicitation at all.
      ...(elicitor ? { elicit: elicitor } : {}),
      // --yes answers tool approvals only; consenting to the workspace is --trust-project.
      projectApprovals: approvals,
      ...(tracerProvider ? { tracing: { tracerProvider } } : {}),
    });
  } catch (error) {
    prompter.close();
    await tracing.shutdown();
    throw error;
  }
  // Built once now: a section the budget cuts (an instruction file) says so with the start-up
  // diagnostics, not in the middle of the first answer.
  agent.systemPrompt();
  if (!flags.json) {
    // In --json mode diagnostics travel inside the JSON document instead.
    for (const diagnostic of agent.diagnostics())
      writeLine(io.stderr, formatDiagnostic(diagnostic));
    agent.on("diagnostic", (diagnostic) => writeLine(io.stderr, formatDiagnostic(diagnostic)));
  }
  return {
    agent,
    resumed: saved?.resumed ?? false,
    async close() {
      try {
        await agent.close();
      } finally {
        prompter.close();
        // After the agent: the spans of its last calls end as it closes.
        await tracing.shutdown();
      }
    },
  };
}

/** Start an agent as a command does, run `body`, and always close the agent, whatever happens. */
export async function withCliAgent<T>(
  options: CliAgentOptions,
  body: (started: CliAgent) => Promise<T>,
): Promise<T> {
  const started = await openCliAgent(options);
  try {
    return await body(started);
  } finally {
    await started.close();
  }
}

/**
 * What the workspace's files may widen in this run: what the user approved for it, or with
 * `--trust-project` everything it asks for, this run only, remembering nothing.
 */
export function projectApprovals(flags: CliFlags): ProjectApprovals {
  return flags["trust-project"] ? "all" : "remembered";
}

/** The workspace and its config layers, as every command reads them (`--workspace`, `--user-config`). */
export async function loadCliConfig(
  flags: CliFlags,
  io: CliIo,
): Promise<{ workspace: string; config: LoadedConfig }> {
  const workspace = await resolveWorkspace(io.cwd, flags.workspace);
  const userConfig = flags["user-config"];
  const config = loadConfig({
    workspace,
    ...(userConfig !== undefined ? { userFile: path.resolve(io.cwd, userConfig) } : {}),
    // Claude Code's settings files mean here what they mean there: the user's deny rules hold.
    foreignLayers: claudeCodeLayers(),
  });
  return { workspace, config };
}

async function resolveWorkspace(cwd: string, given: string | undefined): Promise<string> {
  const workspace = path.resolve(cwd, given ?? ".");
  const info = await stat(workspace).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new CliUsageError("invalid_workspace", `--workspace ${workspace} is not a directory.`, {
      details: { flag: "workspace", value: workspace },
    });
  }
  return workspace;
}

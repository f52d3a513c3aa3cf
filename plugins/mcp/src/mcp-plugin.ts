import { pathToFileURL } from "node:url";
import { definePlugin, type Plugin } from "@pseudoclaude/core";
import {
  optionKeys,
  type PluginContext,
  reportUnknownOptions,
  SkillCatalog,
} from "@pseudoclaude/core/plugin";
import { codeServers, type McpServerEntry, type McpServerOptions } from "./config/code-servers.js";
import { loadServers, MCP_SECTION_SPEC } from "./config/load-servers.js";
import { MCP_JSON_SECTION_SPEC } from "./config/mcp-json-choices.js";
import { MCP_WIDENING, projectServerApprovals } from "./config/project-approvals.js";
import type { McpServerConfig } from "./config/server-config.js";
import { DefaultMcpManager } from "./default-mcp-manager.js";
import { ResourceToolSource } from "./features/resource-tools.js";
import { createSampler } from "./features/sampling.js";
import { serverLogReporter } from "./features/server-log.js";
import { ServerLogs } from "./features/server-logs.js";
import { followServerSkills } from "./features/skills/follow-server-skills.js";
import { DEFAULT_PAGE_CAP } from "./manager/list-all-tools.js";
import { ServerConnection } from "./manager/server-connection.js";
import { McpManager } from "./mcp-manager.js";
import { McpServerSource, needsApprovalMessage } from "./mcp-server-source.js";
import type { ClientHandlers, SessionDialer } from "./mcp-session.js";
import { type CredentialStore, defaultCredentialStore } from "./oauth/credential-store.js";
import type { Authorizer } from "./oauth/oauth-settings.js";
import { redactingCredentials } from "./oauth/redacting-credentials.js";
import { SdkDialer } from "./session/dialer.js";
import { MCP_APP_HTML } from "./session/era-handlers.js";

export interface McpPluginOptions {
  /**
   * Servers in code, typed per transport (camelCase; a config file's snake_case keys work too):
   * they replace same-named file entries. A mistake (an unknown key, a missing command or url,
   * a wrong type) throws a `ConfigError` from `mcp()`, naming the server and the key.
   */
  servers?: Record<string, McpServerOptions | McpServerEntry>;
  /** Name and version sent in `initialize`. */
  clientInfo?: { name: string; version: string };
  /** Most tools/list pages followed per server. Default 100. */
  pageCap?: number;
  /** Debounce for `list_changed` re-listing. Default 100 ms. */
  listChangedDebounceMs?: number;
  /** Reconnect backoff after a server dies. Default 1 s doubling to 30 s. */
  reconnectBackoff?: { initialMs: number; maxMs: number };
  /** Cap on each server's instructions in the system prompt. Default 4 000 characters. */
  instructionsMaxChars?: number;
  /** Replace how sessions are created (another SDK generation, tests). */
  dialer?: SessionDialer;
  /** Read `<workspace>/.mcp.json` (the format other agents share) as project servers. Default true. */
  mcpJson?: boolean;
  /** Where OAuth clients and tokens are kept. Default: `~/.PseudoClaude/oauth-credentials.json`. */
  credentials?: CredentialStore;
  /**
   * Completes an OAuth authorization a person would do in a browser. Without one, a server
   * that needs a login is `needs-auth` until `pseudoclaude mcp login` stores a token.
   */
  authorize?: Authorizer;
  /**
   * A host that renders MCP Apps views (`ui://` resources, `text/html;profile=mcp-app`) is
   * attached, such as a web studio: the MCP Apps extension is declared to every server. Leave
   * it out where nothing can show a view (a terminal), so servers send their text fallback.
   */
  appHost?: { mimeTypes?: string[] };
}

export const MCP_PLUGIN_NAME = "mcp";

/** Every key of {@link McpPluginOptions}: another one passed in code is a mistake. */
const MCP_OPTION_KEYS = optionKeys<McpPluginOptions>()([
  "servers",
  "clientInfo",
  "pageCap",
  "listChangedDebounceMs",
  "reconnectBackoff",
  "instructionsMaxChars",
  "dialer",
  "mcpJson",
  "credentials",
  "authorize",
  "appHost",
]);

const CLIENT_INFO = { name: "pseudoclaude", version: "0.1.0" };

/** The MCP plugin: every configured server's tools, resources and prompts in the agent. */
export function mcp(options: McpPluginOptions = {}): Plugin {
  return definePlugin({
    name: MCP_PLUGIN_NAME,
    sections: [MCP_SECTION_SPEC, MCP_JSON_SECTION_SPEC],
    trust: {
      widening: MCP_WIDENING,
      requests: ({ config, workspace, env }) =>
        projectServerApprovals(config, workspace, {
          env,
          ...(options.mcpJson === false ? { mcpJson: false } : {}),
        }).map((server) => server.subject),
    },
    register(context) {
      reportUnknownOptions(context, options, MCP_OPTION_KEYS, "mcp()");
      const fromCode = options.servers ? codeServers(options.servers) : undefined;
      // Blocking: createAgent throws (a mistake in code must not leave a server out unseen).
      for (const problem of fromCode?.problems ?? [])
        context.report({
          stage: "config",
          severity: "error",
          code: "config_invalid",
          layer: "code",
          file: "<code>",
          item: problem.server,
          message: problem.message,
          blocking: true,
        });
      const servers = fromCode?.servers;
      const loaded = loadServers(context.config, {
        workspace: context.workspace,
        redactor: context.redactor,
        consent: context.consent,
        ...(servers ? { codeServers: servers } : {}),
        ...(options.mcpJson === false ? { mcpJson: false } : {}),
      });
      for (const diagnostic of loaded.diagnostics) context.report(diagnostic);
      const logs = new ServerLogs();
      const handlers = clientHandlers(context, options.appHost, logs);
      const credentials = redactingCredentials(
        options.credentials ?? defaultCredentialStore(),
        context.redactor,
      );
      const connections = new Map<string, ServerConnection>();
      // Skills over MCP (SEP-2640) join the agent's skill catalog, the kernel's seam with the
      // Skills plugin; an agent composed without a catalog simply has no skill layers.
      const catalog = context.container.isRegistered(SkillCatalog, true)
        ? context.container.resolve<SkillCatalog>(SkillCatalog)
        : undefined;
      for (const configured of loaded.servers) {
        // The config's `env` (Claude Code's too) reaches every process a tool starts; a
        // server's own `env` wins over it.
        const server: McpServerConfig =
          configured.transport === "stdio"
            ? { ...configured, env: { ...context.toolEnv, ...configured.env } }
            : configured;
        const approved = !server.approval || context.consent.isApproved(server.approval);
        if (!approved)
          context.report({
            stage: "config",
            severity: "info",
            code: "mcp_server_needs_approval",
            item: server.name,
            layer: server.layer,
            message: `Project server "${server.name}" is ${needsApprovalMessage(server)}`,
          });
        const connection = new ServerConnection({
          approved,
          credentials,
          ...(options.authorize ? { authorize: options.authorize } : {}),
          server,
          dialer: options.dialer ?? new SdkDialer(),
          handlers: server.sampling
            ? { ...handlers, sample: createSampler(context.callbacks, context.providerRef) }
            : handlers,
          clientInfo: options.clientInfo ?? CLIENT_INFO,
          report: (diagnostic) => context.report(diagnostic),
          pageCap: options.pageCap ?? DEFAULT_PAGE_CAP,
          debounceMs: options.listChangedDebounceMs ?? 100,
          backoff: options.reconnectBackoff ?? { initialMs: 1_000, maxMs: 30_000 },
        });
        connections.set(server.name, connection);
        context.addToolSource(new McpServerSource(connection, context.strict));
        if (server.includeInstructions)
          followInstructions(context, connection, options.instructionsMaxChars ?? 4_000);
        if (catalog) {
          const following = followServerSkills({
            connection,
            catalog,
            report: (diagnostic) => context.report(diagnostic),
            pageCap: options.pageCap ?? DEFAULT_PAGE_CAP,
          });
          context.onClose(() => following.dispose());
        }
      }
      const manager = new DefaultMcpManager(
        connections,
        { credentials, clientInfo: options.clientInfo ?? CLIENT_INFO },
        logs,
      );
      context.container.registerInstance(McpManager, manager);
      if (connections.size > 0) context.addToolSource(new ResourceToolSource(manager));
    },
  });
}

function clientHandlers(
  context: PluginContext,
  appHost: McpPluginOptions["appHost"],
  logs: ServerLogs,
): ClientHandlers {
  const report = serverLogReporter((diagnostic) => context.report(diagnostic));
  const handlers: ClientHandlers = {
    roots: () => [{ uri: pathToFileURL(context.workspace).href, name: "workspace" }],
    log: (server, entry) => {
      report(server, entry);
      logs.publish(server, context.redactor.redactValue(entry));
    },
    ...(appHost ? { appHost: { mimeTypes: appHost.mimeTypes ?? [MCP_APP_HTML] } } : {}),
  };
  // No elicit callback: servers are not offered elicitation, and one that asks anyway is
  // answered at once (refused, or declined in 2026-07-28), never left hanging.
  if (context.callbacks.elicit) handlers.elicit = context.callbacks.elicit;
  return handlers;
}

/** A server's `instructions` become a system-prompt section, attributed and capped. */
function followInstructions(
  context: PluginContext,
  connection: ServerConnection,
  maxChars: number,
): void {
  let section: { dispose(): void } | undefined;
  connection.on("state", (state) => {
    if (state !== "ready") return;
    const text = connection.activeSession?.instructions?.trim();
    section?.dispose();
    section = text
      ? context.addSystemPromptSection({
          id: `mcp:${connection.name}:instructions`,
          title: `Instructions from MCP server "${connection.name}"`,
          source: `mcp:${connection.name}`,
          content: text,
          maxChars,
        })
      : undefined;
  });
}

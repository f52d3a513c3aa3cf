import type { ConsentSubject } from "@pseudoclaude/core/consent";
import { type ZodModule, zodSchema } from "@pseudoclaude/core/plugin";
import type { z } from "zod";
import { type OAuthSettings, oauthSchema } from "../oauth/oauth-settings.js";

/** MCP's log levels (RFC 5424's), least severe first. */
export const MCP_LOG_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;
export type McpLogLevel = (typeof MCP_LOG_LEVELS)[number];

/** What `protocol` may say: negotiate, or pin one era's revision. */
export const MCP_PROTOCOLS = ["auto", "2026-07-28", "2025-11-25"] as const;
export type McpProtocol = (typeof MCP_PROTOCOLS)[number];

/** Server names become part of tool names (`mcp__<server>__<tool>`), so keep them plain. */
export const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

const noLineBreaks = (value: string) => !/[\r\n]/.test(value);

/** What every entry may say, whatever its transport. */
function commonFields(z: ZodModule) {
  return {
    tools: z
      .object({
        allow: z.array(z.string().min(1)).optional(),
        deny: z.array(z.string().min(1)).optional(),
      })
      .strict()
      .optional(),
    /** Relaxes safety: honour this server's readOnlyHint. */
    trust_annotations: z.boolean().optional(),
    /** Relaxes safety: declare these remote tools read-only. */
    read_only_tools: z.array(z.string().min(1)).optional(),
    /** Declare every tool of the server read-only (one switch for a server the user vouches for). Relaxes safety. */
    read_only: z.boolean().optional(),
    connect_timeout_ms: z.number().int().positive().optional(),
    call_timeout_ms: z.number().int().positive().optional(),
    /** How long a call that became an MCP task may run in all (default: no limit). */
    task_timeout_ms: z.number().int().positive().optional(),
    max_output_chars: z.number().int().positive().optional(),
    enabled: z.boolean().optional(),
    /**
     * `true`: the model finds this server's tools through tool search, `false`: they are always
     * sent; absent: deferred once the agent's tool set passes its threshold (see the kernel's
     * `tool_search` section).
     */
    defer_loading: z.boolean().optional(),
    /** Whether the server's `instructions` go into the system prompt (default true). */
    instructions: z.boolean().optional(),
    /** Declare the sampling capability for this server (default false). */
    sampling: z.boolean().optional(),
    /**
     * The models this server's sampling may choose by its `modelPreferences` hints (the agent's
     * own model when none matches or none is listed).
     */
    sampling_models: z.array(z.string().min(1)).optional(),
    /**
     * Which MCP protocol era to speak: `auto` (default) asks the server (`server/discover`) and
     * falls back to `initialize` on the same process; a revision pins it.
     */
    protocol: z.enum(MCP_PROTOCOLS).optional(),
    /** The least severe log message the server is asked to send (2025 era: logging/setLevel). */
    logging: z
      .object({ level: z.enum(MCP_LOG_LEVELS) })
      .strict()
      .optional(),
  };
}

/** A `stdio` entry: a command we start. */
export const stdioEntrySchema = zodSchema((z) =>
  z
    .object({
      type: z.literal("stdio"),
      command: z.string().min(1, "stdio servers need a command"),
      args: z.array(z.string()).optional(),
      env: z.record(z.string(), z.string()).optional(),
      cwd: z.string().min(1).optional(),
      /** Pass this process's whole environment (default: only what programs need to run). */
      inherit_env: z.boolean().optional(),
      ...commonFields(z),
    })
    .strict(),
);

/** An `http` or `sse` entry: a URL we reach. */
export const httpEntrySchema = zodSchema((z) =>
  z
    .object({
      type: z.enum(["http", "sse"]),
      url: z.url({
        message: "http and sse servers need an absolute http(s) URL",
        protocol: /^https?$/,
      }),
      headers: z
        .record(
          z.string().refine(noLineBreaks, "header names must not contain CR or LF"),
          z.string().refine(noLineBreaks, "header values must not contain CR or LF"),
        )
        .optional(),
      /** OAuth client settings; without them a server that answers 401 is tried with registration. */
      oauth: oauthSchema().optional(),
      ...commonFields(z),
    })
    .strict(),
);

/** A `mcp_servers` entry: `stdio`, or `http` / `sse`, told apart by `type`. */
export const serverEntrySchema = zodSchema((z) =>
  z.discriminatedUnion("type", [stdioEntrySchema(), httpEntrySchema()]),
);

/**
 * The schema an entry of this `type` is checked with: its transport's alone when the type names
 * one (the union would check it with that one too, after building both: an agent of stdio
 * servers builds no HTTP or OAuth schema), the union otherwise, which says what types there are.
 */
export function entrySchemaFor(type: unknown): z.ZodType<RawServerEntry> {
  if (type === "stdio") return stdioEntrySchema();
  if (type === "http" || type === "sse") return httpEntrySchema();
  return serverEntrySchema();
}

/** One `mcp_servers` entry as the config file writes it (snake_case), after validation. */
export type RawServerEntry = z.infer<ReturnType<typeof serverEntrySchema>>;

export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_OUTPUT_CHARS = 100_000;

/** What every validated server has, whatever its transport. */
interface ServerCommon {
  name: string;
  /** Config layer it came from (`user`, `project`, or `code`). */
  layer: string;
  toolFilter: { allow?: string[]; deny?: string[] };
  trustAnnotations: boolean;
  readOnlyTools: string[];
  allReadOnly: boolean;
  connectTimeoutMs: number;
  /** `defer_loading`; absent: the agent's tool search decides (see `ToolDefinition.deferLoading`). */
  deferLoading?: boolean;
  callTimeoutMs?: number;
  /** `task_timeout_ms`: bounds a call that became a task (the call timeout bounds each request). */
  taskTimeoutMs?: number;
  maxOutputChars: number;
  includeInstructions: boolean;
  sampling: boolean;
  /** `sampling_models`: what a server's model hints may pick from (see pickSamplingModel). */
  samplingModels: string[];
  /** The protocol era to speak (see the `protocol` key); `auto` negotiates. */
  protocol: McpProtocol;
  /** Asked of the server after connecting (`logging.level`); absent: the server's default. */
  logLevel?: McpLogLevel;
  /**
   * Set when the workspace's own files ask for this server and it would run code or send the
   * user's environment (a project stdio server; a project HTTP server whose headers use
   * `${VAR}`): it starts only once the user approved this subject for the workspace.
   */
  approval?: ConsentSubject;
}

/** A server we start as a child process and speak to over its stdin and stdout. */
export interface StdioServerConfig extends ServerCommon {
  transport: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  inheritEnv: boolean;
  /** Stdio servers have no URL; declared so code reading any server's `url` narrows. */
  url?: undefined;
  /** Always empty: a process gets no HTTP headers. Kept so code reading any server's works. */
  headers: Readonly<Record<string, never>>;
}

/** A server reached over Streamable HTTP, or the legacy HTTP+SSE transport. */
export interface HttpServerConfig extends ServerCommon {
  transport: "http" | "sse";
  url: string;
  headers: Record<string, string>;
  /** OAuth settings from config, expanded; absent means defaults (registration, a person logs in). */
  oauth?: OAuthSettings;
  /** Remote servers have no command; declared so code reading any server's `command` narrows. */
  command?: undefined;
  /** Always empty: no process is started for a remote server. Kept so code reading any server's works. */
  env: Readonly<Record<string, never>>;
}

/** A validated, expanded server, ready for the manager: one shape per transport. */
export type McpServerConfig = StdioServerConfig | HttpServerConfig;

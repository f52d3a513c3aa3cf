import type { ParseArgsConfig } from "node:util";

/** Flags every command takes. */
export const GLOBAL_FLAGS = ["workspace", "json", "help", "plugin", "user-config"] as const;

/**
 * Every flag of every command, parsed in one pass so that flags may come before or after the
 * command name; `main` then rejects flags the chosen command does not take.
 */
export const CLI_OPTIONS = {
  workspace: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
  plugin: { type: "string", multiple: true },
  "user-config": { type: "string" },
  strict: { type: "boolean" },
  mode: { type: "string" },
  "tool-search": { type: "string" },
  "code-mode": { type: "string" },
  yes: { type: "boolean", short: "y" },
  "trust-project": { type: "boolean" },
  "timeout-ms": { type: "string" },
  provider: { type: "string" },
  model: { type: "string" },
  script: { type: "string" },
  "max-turns": { type: "string" },
  "output-schema": { type: "string" },
  "system-prompt": { type: "string" },
  "append-system-prompt": { type: "string" },
  "no-instructions": { type: "boolean" },
  continue: { type: "boolean", short: "c" },
  resume: { type: "string", short: "r" },
  trace: { type: "string" },
  reason: { type: "string" },
  ingress: { type: "string" },
  durable: { type: "string" },
  session: { type: "string" },
  port: { type: "string" },
  host: { type: "string" },
  register: { type: "boolean" },
  admin: { type: "string" },
  "on-interrupted": { type: "string" },
  "identity-key": { type: "string", multiple: true },
  name: { type: "string" },
  open: { type: "boolean" },
  mcp: { type: "boolean" },
  http: { type: "string" },
  "no-auth": { type: "boolean" },
  "oauth-issuer": { type: "string" },
  "oauth-scope": { type: "string", multiple: true },
} as const satisfies NonNullable<ParseArgsConfig["options"]>;

/** A flag name. */
export type CliFlag = keyof typeof CLI_OPTIONS;

/** Parsed flag values; a command only sees flags it declared (others are rejected). */
export interface CliFlags {
  workspace?: string;
  json?: boolean;
  help?: boolean;
  version?: boolean;
  plugin?: string[];
  "user-config"?: string;
  strict?: boolean;
  mode?: string;
  /** `auto`, `always` or `never`: when tool definitions are deferred to tool search. */
  "tool-search"?: string;
  "code-mode"?: string;
  yes?: boolean;
  /** Consent to what the workspace's files ask for, for this run only. */
  "trust-project"?: boolean;
  "timeout-ms"?: string;
  provider?: string;
  model?: string;
  script?: string;
  "max-turns"?: string;
  "output-schema"?: string;
  /** Replaces the base system prompt (`run`, `chat`, `studio`). */
  "system-prompt"?: string;
  /** Comes after the base system prompt. */
  "append-system-prompt"?: string;
  /** No instruction files (CLAUDE.md, AGENTS.md) in the system prompt. */
  "no-instructions"?: boolean;
  continue?: boolean;
  resume?: string;
  trace?: string;
  reason?: string;
  ingress?: string;
  durable?: string;
  session?: string;
  port?: string;
  host?: string;
  register?: boolean;
  admin?: string;
  "on-interrupted"?: string;
  "identity-key"?: string[];
  /** `init`: the new app's package name. */
  name?: string;
  /** `studio`: open the page in the browser. */
  open?: boolean;
  /** `serve`: serve the registry as an MCP server. */
  mcp?: boolean;
  /** `serve --mcp`: over Streamable HTTP on this port, instead of stdio. */
  http?: string;
  /** `serve --mcp --http`: no bearer token (loopback only). */
  "no-auth"?: boolean;
  /** `serve --mcp --http`: an OAuth authorization server issues the tokens. */
  "oauth-issuer"?: string;
  "oauth-scope"?: string[];
}

import type { McpSkillErrorCode } from "./features/skills/verify-skill-file.js";

/**
 * Every code the MCP plugin's errors carry, in one place. Each union belongs to one fault
 * class of the kernel (`ToolSourceError`, `ConfigError`, `UsageError`), so a code says what
 * went wrong and the class says who is at fault.
 */

/** Why a call never got a tool answer; goes to `metadata.reason` of `mcp_call_error` results. */
export type McpCallReason =
  | "transport"
  | "session"
  | "protocol"
  | "timeout"
  | "cancelled"
  /** The server refused our tokens and they could not be refreshed: someone must log in. */
  | "auth";

/** Codes of {@link McpCallReason}s as McpCallError codes (a `ToolSourceError`: the server's end). */
export type McpCallErrorCode =
  | "call_transport_failed"
  | "call_session_unavailable"
  | "call_protocol_error"
  | "call_timed_out"
  | "call_cancelled"
  | "call_needs_auth";

/**
 * Codes of a server failing us outside a call (`ToolSourceError`): no handshake in the connect
 * budget, a process that exited, a connection refused, a first listing that failed, a stdio
 * server writing what is not one JSON-RPC message a line, or gone when we write.
 */
export type McpServerErrorCode =
  | "connect_timeout"
  | "server_exited"
  | "connect_failed"
  | "list_tools_failed"
  | "server_not_running"
  | "message_too_large"
  | "not_json"
  | "not_json_rpc"
  /** The server wants an OAuth login nobody could do here (no person, no stored token). */
  | "needs_auth";

/** Codes of MCP settings at fault (`ConfigError`): the person can fix them in the config. */
export type McpConfigErrorCode =
  | "command_not_found"
  | "sampling_without_provider"
  | "sampling_without_approver";

/**
 * Codes of requests the plugin refuses (`UsageError`): a server name nobody configured, a
 * transport started twice, a sampling request the person declined.
 */
export type McpUsageErrorCode =
  | "unknown_server"
  | "transport_already_started"
  | "sampling_declined"
  /** A login was asked of a server that does not use OAuth (stdio). */
  | "not_remote_server";

/** The kernel's fault class for a tool's other end (fault "tool"), used by every MCP failure of the server's. */
export { ToolSourceError } from "@pseudoclaude/core";

// The plugin's codes join the kernel's code lists, so `ConfigError.is(error)` (and the other
// guards) type `code` with what this plugin can throw too, in any program that imports it.
declare module "@pseudoclaude/core" {
  interface ConfigErrorCodes extends Record<McpConfigErrorCode, true> {}
  interface UsageErrorCodes extends Record<McpUsageErrorCode, true> {}
  interface ToolSourceErrorCodes
    extends Record<McpServerErrorCode | McpCallErrorCode | McpSkillErrorCode, true> {}
}

import { ConfigError } from "@pseudoclaude/core";
import type { StdioServerConfig } from "../config/server-config.js";
import {
  type McpConfigErrorCode,
  type McpServerErrorCode,
  ToolSourceError,
} from "../mcp-errors.js";
import type { StderrTail } from "./stderr-tail.js";
import type { StdioProcessTransport } from "./stdio-transport.js";

/**
 * What a stdio server that never answered did, as a person reads it, in either era: a command
 * that does not exist, or a process that ended (its exit code or signal, and the last lines of
 * its stderr). Undefined while the process neither failed to start nor ended.
 */
export function stdioEndedEarly(
  server: StdioServerConfig,
  error: unknown,
  transport: Pick<StdioProcessTransport, "exitInfo"> | undefined,
  tail: StderrTail,
): ConfigError<McpConfigErrorCode> | ToolSourceError<McpServerErrorCode> | undefined {
  const cause = { cause: error };
  const exit = transport?.exitInfo;
  if (exit) {
    const how =
      exit.code !== null ? `exited with code ${exit.code}` : `was killed by ${exit.signal}`;
    return new ToolSourceError<McpServerErrorCode>(
      "server_exited",
      `The server process ${how} before the MCP handshake finished.${stderrOf(server, tail)}`,
      cause,
    );
  }
  if ((error as NodeJS.ErrnoException | undefined)?.code === "ENOENT")
    return new ConfigError<McpConfigErrorCode>(
      "command_not_found",
      `Cannot start "${server.command}": command not found.`,
      cause,
    );
  return undefined;
}

/** The last stderr lines of a stdio server, for the end of a message. */
export function stderrOf(server: StdioServerConfig, tail: StderrTail): string {
  return `\nLast stderr lines of "${server.command}":\n${tail.describe(10)}`;
}

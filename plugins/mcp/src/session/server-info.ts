import type { McpSession } from "./mcp-session.js";

/**
 * The server's `serverInfo` from `initialize` (or `server/discover`) as a session hands it on,
 * the same from either era's client: name and version, and the title only when it has one.
 */
export function serverInfoOf(
  info: { name: string; version: string; title?: string | undefined } | undefined,
): McpSession["serverInfo"] {
  return info
    ? { name: info.name, version: info.version, ...(info.title ? { title: info.title } : {}) }
    : undefined;
}

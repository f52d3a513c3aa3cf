import type { ToolDefinition } from "@pseudoclaude/core";

/** The MCP Apps extension a client declares when it renders views. */
export const APPS_EXTENSION = "io.modelcontextprotocol/ui";

const UI_SCHEME = "ui://";
/** What an exported view's host starts with: `ui://mcp.<server>/…`. */
const SERVER_PREFIX = "mcp.";

/**
 * An upstream server's view (`ui://…`) as the gateway serves it: `ui://mcp.<server>/<the rest>`.
 * Always qualified by its server, so two servers' views never share a URI, a tool's
 * `resourceUri` can be written without knowing the other servers' listings, and a host still
 * sees a `ui://` URI (which MCP Apps requires).
 */
export function exportedAppUri(server: string, uri: string): string {
  return `${UI_SCHEME}${SERVER_PREFIX}${encodeURIComponent(server)}/${uri.slice(UI_SCHEME.length)}`;
}

/** The server and upstream URI of an exported view's URI, or undefined for any other URI. */
export function upstreamAppUri(exported: string): { server: string; uri: string } | undefined {
  const prefix = `${UI_SCHEME}${SERVER_PREFIX}`;
  if (!exported.startsWith(prefix)) return undefined;
  const rest = exported.slice(prefix.length);
  const slash = rest.indexOf("/");
  if (slash <= 0) return undefined;
  try {
    return {
      server: decodeURIComponent(rest.slice(0, slash)),
      uri: `${UI_SCHEME}${rest.slice(slash + 1)}`,
    };
  } catch {
    return undefined;
  }
}

export function isAppUri(uri: string): boolean {
  return uri.startsWith(UI_SCHEME);
}

/**
 * A tool's `_meta.ui` as clients get it: its server's declaration with the view's URI as the
 * gateway serves it and the audience the registry holds. Undefined for a tool with no view and
 * no audience of its own.
 */
export function listedUiMeta(definition: ToolDefinition): Record<string, unknown> | undefined {
  const remote = definition.meta?.remote_meta as { ui?: unknown } | undefined;
  const declared =
    remote?.ui && typeof remote.ui === "object" ? (remote.ui as Record<string, unknown>) : {};
  const ui: Record<string, unknown> = { ...declared };
  const server = definition.meta?.server;
  const uri = declared.resourceUri;
  if (typeof uri === "string" && typeof server === "string" && isAppUri(uri))
    ui.resourceUri = exportedAppUri(server, uri);
  else delete ui.resourceUri;
  if (definition.audience) ui.visibility = [...definition.audience];
  else delete ui.visibility;
  return Object.keys(ui).length > 0 ? ui : undefined;
}

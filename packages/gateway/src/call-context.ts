import type { AuthInfo, Server, ServerContext } from "@modelcontextprotocol/server";
import { APPS_EXTENSION } from "./app-views.js";

/** The protocol revisions the gateway speaks. */
export type GatewayEra = "2025-11-25" | "2026-07-28";

/** What the gateway knows of a request's connection, for its decisions and the audit. */
export interface CallContext {
  transport: "stdio" | "http";
  era: GatewayEra;
  server: Server;
}

const CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
const CLIENT_INFO = "io.modelcontextprotocol/clientInfo";

/**
 * Whether the client can answer a form elicitation: on 2026-07-28 it says so on every request
 * (the envelope), on 2025-11-25 once at `initialize`.
 */
export function clientCanElicit(
  ctx: ServerContext,
  server: Server,
  mode: "form" | "url" = "form",
): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = (envelope?.[CAPABILITIES] ?? server.getClientCapabilities()) as
    | { elicitation?: { form?: unknown; url?: unknown } }
    | undefined;
  const elicitation = capabilities?.elicitation;
  if (!elicitation) return false;
  if (mode === "url") return elicitation.url !== undefined;
  // An empty object is form support (the 2025-06-18 shape); otherwise form must be declared.
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/**
 * Whether the client renders MCP Apps views (it declared the extension): only such a client is
 * listed a tool only views may call, and may call one. Like elicitation, said on every request
 * on 2026-07-28 and once at `initialize` on 2025-11-25.
 */
export function clientHostsApps(ctx: ServerContext, server: Server): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = (envelope?.[CAPABILITIES] ?? server.getClientCapabilities()) as
    | { extensions?: Record<string, unknown> }
    | undefined;
  return capabilities?.extensions?.[APPS_EXTENSION] !== undefined;
}

/** The client's name and version, and the token's principal over HTTP. */
export function who(ctx: ServerContext, server: Server): { client?: string; principal?: string } {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const info = (envelope?.[CLIENT_INFO] ?? server.getClientVersion()) as
    | { name?: unknown; version?: unknown }
    | undefined;
  const found: { client?: string; principal?: string } = {};
  if (typeof info?.name === "string")
    found.client = typeof info.version === "string" ? `${info.name}/${info.version}` : info.name;
  const principal = principalOf(ctx.http?.authInfo);
  if (principal) found.principal = principal;
  return found;
}

function principalOf(auth: AuthInfo | undefined): string | undefined {
  if (!auth) return undefined;
  const subject = auth.extra?.sub;
  return typeof subject === "string" ? subject : auth.clientId || undefined;
}

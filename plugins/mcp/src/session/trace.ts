/**
 * MCP client span attributes (the OpenTelemetry MCP semantic conventions) of a session's
 * `tools/call`, for the call's execute_tool span: which server, which protocol, over what.
 */
export function mcpTraceFacts(session: {
  serverName: string;
  protocolVersion: string | undefined;
  /** Absent for stdio (a pipe). */
  url: string | undefined;
  overStdio: boolean;
  sessionId: string | undefined;
}): Record<string, string | number> {
  const facts: Record<string, string | number> = {
    "mcp.method.name": "tools/call",
    "pseudoclaude.mcp.server": session.serverName,
  };
  if (session.protocolVersion) facts["mcp.protocol.version"] = session.protocolVersion;
  if (session.overStdio) {
    facts["network.transport"] = "pipe";
    return facts;
  }
  facts["network.transport"] = "tcp";
  facts["network.protocol.name"] = "http";
  if (session.url) {
    const url = new URL(session.url);
    facts["server.address"] = url.hostname.replace(/^\[|\]$/g, "");
    facts["server.port"] = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  }
  if (session.sessionId) facts["mcp.session.id"] = session.sessionId;
  return facts;
}

const TRACE_HEADERS = ["traceparent", "tracestate", "baggage"] as const;
const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/**
 * Over HTTP the trace also travels as W3C headers on the POST that carries a traced request,
 * so what sits in front of the server (a gateway, its HTTP framework's tracing) continues the
 * same trace as the server's MCP handler. The request's `params._meta` is the one place the
 * trace is set; the headers are copied from there.
 */
export function traceHeadersOf(message: unknown): Record<string, string> | undefined {
  const meta = (message as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
  if (!meta || typeof meta.traceparent !== "string" || !TRACEPARENT.test(meta.traceparent))
    return undefined;
  const carried: Record<string, string> = {};
  for (const name of TRACE_HEADERS) {
    const value = meta[name];
    if (typeof value === "string") carried[name] = value;
  }
  return carried;
}

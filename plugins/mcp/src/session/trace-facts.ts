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

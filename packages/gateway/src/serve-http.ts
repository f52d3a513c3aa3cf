import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  hostHeaderValidation,
  NodeStreamableHTTPServerTransport,
  originValidation,
  toNodeHandler,
  toWebRequest,
} from "@modelcontextprotocol/node";
import {
  type AuthInfo,
  type AuthMetadataOptions,
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  isJsonContentType,
  isLegacyRequest,
  oauthMetadataResponse,
  requireBearerAuth,
} from "@modelcontextprotocol/server";
import type { Gateway } from "./gateway.js";
import { discoverIssuer, type GatewayAuth, jwtVerifier, staticTokenVerifier } from "./http-auth.js";

/** Where the MCP endpoint is, on the gateway's HTTP server. */
export const MCP_PATH = "/mcp";

/** The largest request body the gateway reads. */
const MAX_BODY = 4 * 1024 * 1024;

export interface ServeHttpOptions {
  /** 0 picks a free port. */
  port: number;
  /** Default 127.0.0.1. Any other address needs `auth` other than `none`. */
  host?: string | undefined;
  auth: GatewayAuth;
  onError?: ((error: Error) => void) | undefined;
}

export interface HttpGateway {
  /** The MCP endpoint clients connect to. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** Whether a bind address only takes connections from this machine. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith("127.");
}

/**
 * The gateway over Streamable HTTP, both eras on one endpoint: 2026-07-28 requests go to the
 * SDK's per-request handler; 2025-11-25 clients get a session each (`mcp-session-id`), so
 * elicitation, cancellation and `list_changed` reach them. The Host header must name this
 * server and a browser's Origin must be local (DNS rebinding), and every request but the
 * protected resource metadata needs the bearer token (or none, on loopback, when told).
 */
export async function serveHttp(gateway: Gateway, options: ServeHttpOptions): Promise<HttpGateway> {
  const host = options.host ?? "127.0.0.1";
  if (options.auth.kind === "none" && !isLoopback(host))
    throw new Error(
      `The gateway will not serve ${host} without authentication: anyone who reaches it could call your tools. Give it a token (PSEUDOCLAUDE_GATEWAY_TOKEN) or an OAuth issuer, or bind 127.0.0.1.`,
    );
  const onError = options.onError ?? (() => undefined);
  const modern = createMcpHandler((ctx) => gateway.createServer("http", ctx, false), {
    legacy: "reject",
    onerror: onError,
  });
  const stopBroadcast = gateway.onBroadcast((what) => {
    if (what === "tools") modern.notify.toolsChanged();
    else if (what === "resources") modern.notify.resourcesChanged();
    else modern.notify.promptsChanged();
  });
  const modernNode = toNodeHandler(modern, { onerror: onError });
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();

  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  const url = new URL(`http://${shownHost}:${port}${MCP_PATH}`);
  const allowedHosts = isLoopback(host)
    ? ["localhost", "127.0.0.1", "[::1]"]
    : [shownHost, "localhost", "127.0.0.1", "[::1]"];
  const validHost = hostHeaderValidation(allowedHosts);
  const validOrigin = originValidation(allowedHosts);
  const auth = await authGate(options.auth, url);

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    // Node sets both on every request a server receives; the types keep them optional.
    void handle(req as ServerRequest, res).catch((error: unknown) => {
      onError(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) res.writeHead(500).end();
      else res.end();
    });
  });

  async function handle(req: ServerRequest, res: ServerResponse): Promise<void> {
    if (!validHost(req, res) || !validOrigin(req, res)) return;
    const pathname = new URL(req.url ?? "/", url).pathname;
    if (pathname.startsWith("/.well-known/")) {
      const answer = auth.metadata?.(await toWebRequest(req));
      return writeResponse(res, answer ?? new Response(null, { status: 404 }));
    }
    if (pathname !== MCP_PATH) return void res.writeHead(404).end();
    let body: unknown;
    if (req.method === "POST") {
      if (!isJsonContentType(req.headers["content-type"] ?? null))
        return void res.writeHead(415).end("Content-Type must be application/json");
      body = await readJson(req);
      if (body === INVALID) return jsonRpcError(res, 400, -32700, "Parse error");
    }
    const web = await toWebRequest(req, body);
    let authInfo: AuthInfo | undefined;
    if (auth.check) {
      const checked = await auth.check(web);
      if (checked instanceof Response) return writeResponse(res, checked);
      authInfo = checked;
      (req as IncomingMessage & { auth?: AuthInfo }).auth = checked;
    }
    if (await isLegacyRequest(web, body)) return legacy(req, res, body, authInfo);
    return modernNode(req, res, body);
  }

  async function legacy(
    req: ServerRequest,
    res: ServerResponse,
    body: unknown,
    authInfo: AuthInfo | undefined,
  ): Promise<void> {
    const sid = req.headers["mcp-session-id"];
    const id = Array.isArray(sid) ? sid[0] : sid;
    let transport = id ? sessions.get(id) : undefined;
    if (!transport && id) return jsonRpcError(res, 404, -32001, "Session not found");
    if (!transport) {
      const created = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (newId) => void sessions.set(newId, created),
        onsessionclosed: (closedId) => void sessions.delete(closedId),
      });
      created.onclose = () => {
        if (created.sessionId) sessions.delete(created.sessionId);
      };
      const instance = gateway.createServer(
        "http",
        authInfo ? { era: "legacy", authInfo } : { era: "legacy" },
        true,
      );
      await instance.connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, body);
  }

  return {
    url: url.href,
    port,
    async close() {
      stopBroadcast();
      await Promise.allSettled([...sessions.values()].map((transport) => transport.close()));
      sessions.clear();
      await modern.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type ServerRequest = IncomingMessage & { method: string; url: string };

interface AuthGate {
  check?: (request: Request) => Promise<AuthInfo | Response>;
  metadata?: (request: Request) => Response | undefined;
}

async function authGate(auth: GatewayAuth, url: URL): Promise<AuthGate> {
  if (auth.kind === "none") return {};
  // A static token has no authorization server to point clients at: no metadata then.
  if (auth.kind === "token")
    return { check: requireBearerAuth({ verifier: staticTokenVerifier(auth.token) }) };
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(url);
  const oauthMetadata = await discoverIssuer(auth.issuer);
  const scopes = [...(auth.scopes ?? [])];
  const metadataOptions: AuthMetadataOptions = {
    oauthMetadata,
    resourceServerUrl: url,
    resourceName: "PseudoClaude gateway",
    dangerouslyAllowInsecureIssuerUrl: new URL(auth.issuer).protocol === "http:",
  };
  if (scopes.length > 0) metadataOptions.scopesSupported = scopes;
  return {
    check: requireBearerAuth({
      verifier: jwtVerifier(oauthMetadata, url, scopes),
      resourceMetadataUrl,
      ...(scopes.length > 0 ? { requiredScopes: scopes } : {}),
    }),
    metadata: (request) => oauthMetadataResponse(request, metadataOptions),
  };
}

const INVALID = Symbol("invalid JSON");

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return INVALID;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return INVALID;
  }
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }));
}

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
}

// A small OAuth-protected MCP server in the test process, over real HTTP on 127.0.0.1: resource
// metadata, authorization server metadata, registration, an authorization endpoint that
// redirects at once (the "browser" is the test), a token endpoint that checks PKCE, and an MCP
// endpoint that wants a bearer token. Options make it misbehave the ways the client must refuse.
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export interface OAuthServerOptions {
  /** Advertise S256 PKCE (default true); false: a server the client must refuse. */
  pkce?: boolean;
  /** A `resource` in the metadata other than this server's URL: the client must refuse it. */
  resource?: string;
  /** Lifetime of access tokens, in seconds (default 3600). */
  expiresIn?: number;
  /** Also offer `echo_token`, a careless tool that answers with the bearer token it got. */
  echoToken?: boolean;
  /** Refuse every code at the token endpoint, with an OAuth error. */
  refuseTokens?: boolean;
  /** Refuse every refresh token (a revoked grant): the client must ask for a login again. */
  refuseRefresh?: boolean;
}

export interface OAuthServer {
  readonly url: string;
  /** What happened, in order: `register`, `authorize`, `token authorization_code`, `token refresh_token`, `mcp <method>`. */
  readonly events: string[];
  /** The client metadata of every dynamic registration, as sent. */
  readonly registrations: Array<Record<string, unknown>>;
  /** Era probes (`server/discover`) it refused for want of a token, apart from `events`. */
  readonly probes: { count: number };
  /** The access tokens it issued (to look for them in output). */
  readonly issued: string[];
  close(): Promise<void>;
}

export async function startOAuthServer(options: OAuthServerOptions = {}): Promise<OAuthServer> {
  const events: string[] = [];
  const probes = { count: 0 };
  const registrations: Array<Record<string, unknown>> = [];
  const issued: string[] = [];
  const codes = new Map<string, { challenge: string | undefined }>();
  const valid = new Map<string, number>();
  const refreshTokens = new Set<string>();
  let base = "";
  const expiresIn = options.expiresIn ?? 3600;
  const issue = () => {
    const access = `at-${randomUUID()}`;
    const refresh = `rt-${randomUUID()}`;
    issued.push(access, refresh);
    valid.set(access, Date.now() + expiresIn * 1000);
    refreshTokens.add(refresh);
    return {
      access_token: access,
      token_type: "Bearer",
      expires_in: expiresIn,
      refresh_token: refresh,
    };
  };
  const json = (
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    response.writeHead(status, { "Content-Type": "application/json", ...headers });
    response.end(JSON.stringify(body));
  };
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", base);
    try {
      if (url.pathname === "/.well-known/oauth-protected-resource/mcp")
        return json(response, 200, {
          resource: options.resource ?? `${base}/mcp`,
          authorization_servers: [base],
        });
      if (url.pathname === "/.well-known/oauth-authorization-server")
        return json(response, 200, {
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          response_types_supported: ["code"],
          grant_types_supported: ["authorization_code", "refresh_token"],
          token_endpoint_auth_methods_supported: ["none"],
          ...(options.pkce === false ? {} : { code_challenge_methods_supported: ["S256"] }),
        });
      if (url.pathname === "/register" && request.method === "POST") {
        const body = JSON.parse(await readBody(request)) as Record<string, unknown>;
        events.push("register");
        registrations.push(body);
        return json(response, 201, {
          ...body,
          client_id: `client-${randomUUID()}`,
          token_endpoint_auth_method: "none",
        });
      }
      if (url.pathname === "/authorize") {
        events.push("authorize");
        const code = `code-${randomUUID()}`;
        codes.set(code, { challenge: url.searchParams.get("code_challenge") ?? undefined });
        const back = new URL(url.searchParams.get("redirect_uri") ?? "");
        back.searchParams.set("code", code);
        const state = url.searchParams.get("state");
        if (state) back.searchParams.set("state", state);
        response.writeHead(302, { Location: back.href });
        return response.end();
      }
      if (url.pathname === "/token" && request.method === "POST") {
        const form = new URLSearchParams(await readBody(request));
        const grant = form.get("grant_type") ?? "";
        events.push(`token ${grant}`);
        if (options.refuseTokens)
          return json(response, 400, {
            error: "invalid_grant",
            error_description: "the code has expired",
          });
        if (grant === "authorization_code") {
          const pending = codes.get(form.get("code") ?? "");
          codes.delete(form.get("code") ?? "");
          const verifier = form.get("code_verifier") ?? "";
          const challenge = createHash("sha256").update(verifier).digest("base64url");
          if (!pending || (pending.challenge && pending.challenge !== challenge))
            return json(response, 400, { error: "invalid_grant" });
          return json(response, 200, issue());
        }
        if (
          grant === "refresh_token" &&
          !options.refuseRefresh &&
          refreshTokens.delete(form.get("refresh_token") ?? "")
        )
          return json(response, 200, issue());
        return json(response, 400, { error: "invalid_grant" });
      }
      if (url.pathname === "/mcp") {
        const token = (request.headers.authorization ?? "").replace(/^Bearer /, "");
        const until = valid.get(token);
        if (until === undefined || until < Date.now()) {
          // The era probe (server/discover, answered 401 here as a 2025 server behind OAuth
          // does) is counted apart, so `events` stays the OAuth flow the tests read.
          if (request.headers["mcp-method"] === "server/discover") probes.count += 1;
          else events.push("mcp 401");
          return json(
            response,
            401,
            { error: "invalid_token" },
            {
              "WWW-Authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
            },
          );
        }
        const body = request.method === "POST" ? JSON.parse(await readBody(request)) : undefined;
        events.push(`mcp ${(body as { method?: string } | undefined)?.method ?? request.method}`);
        const mcp = new McpServer({ name: "oauth-fixture", version: "1.0.0" });
        mcp.registerTool("whoami", { description: "Say who you are." }, async () => ({
          content: [{ type: "text", text: "an authorized caller" }],
        }));
        // A careless server that echoes the token it was sent.
        if (options.echoToken)
          mcp.registerTool("echo_token", { description: "Echo the bearer token." }, async () => ({
            content: [{ type: "text", text: `you sent ${token}` }],
          }));
        const transport = new StreamableHTTPServerTransport({}); // stateless: no session ids
        response.on("close", () => {
          void transport.close();
          void mcp.close();
        });
        await mcp.connect(transport);
        await transport.handleRequest(request, response, body);
        return;
      }
      response.writeHead(404).end();
    } catch (error) {
      if (!response.headersSent) json(response, 500, { error: String(error) });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/mcp`,
    events,
    registrations,
    probes,
    issued,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    request.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on("end", () => resolve(text));
    request.on("error", reject);
  });
}

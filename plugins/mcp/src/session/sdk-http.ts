import {
  type OAuthClientProvider,
  UnauthorizedError,
} from "@modelcontextprotocol/sdk/client/auth.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerConfig } from "../config/server-config.js";
import { type McpServerErrorCode, ToolSourceError } from "../mcp-errors.js";
import { askAuthorizer } from "../oauth/ask-authorizer.js";
import { defaultCredentialStore } from "../oauth/credential-store.js";
import { type DpopCapable, dpopFetch } from "../oauth/dpop-fetch.js";
import { checkResponseIssuer } from "../oauth/issuer-checks.js";
import { oauthProviderFor } from "../oauth/oauth-provider.js";
import { OAuthStepRecorder } from "../oauth/oauth-steps.js";
import { HttpCallLane, type LaneEra } from "./http-call-lane.js";
import { leanFetch } from "./lean-fetch.js";
import type { DialOptions } from "./mcp-session.js";
import type { RemoteSupport } from "./remote-support.js";
import { traceHeaderFetch } from "./trace-header-fetch.js";

/**
 * What only remote (http and sse) servers need: their transports, OAuth, and the checks on
 * their errors. sdk-connect.ts loads this module with the first remote server, so an agent
 * of stdio servers never loads the SDK's HTTP transports and OAuth code (~100 ms of CPU on
 * its first dial, measured).
 */

export function createHttpTransport(
  server: McpServerConfig,
  authProvider?: OAuthClientProvider,
  steps?: OAuthStepRecorder,
): Transport {
  if (server.transport === "stdio") throw new Error("a stdio server has no HTTP transport");
  const requestInit: RequestInit = { headers: server.headers };
  const plain = leanFetch(traceHeaderFetch(steps?.fetch));
  const fetch =
    authProvider && "dpop" in authProvider
      ? dpopFetch(authProvider as DpopCapable, server.url, plain)
      : plain;
  const auth = authProvider ? { authProvider } : {};
  if (server.transport === "sse")
    return new SSEClientTransport(new URL(server.url), { requestInit, fetch, ...auth });
  return new StreamableHTTPClientTransport(new URL(server.url), { requestInit, fetch, ...auth });
}

/** Every http and sse server may answer 401; one that sends its own Authorization header does not use OAuth. */
export function authProviderFor(server: McpServerConfig, options: DialOptions) {
  if (server.transport === "stdio") return undefined;
  const ownAuthorization = Object.keys(server.headers).some(
    (name) => name.toLowerCase() === "authorization",
  );
  if (ownAuthorization && !server.oauth) return undefined;
  return oauthProviderFor(
    server.url,
    server.oauth ?? { grant: "authorization_code" },
    options.credentials ?? defaultCredentialStore(),
    options.redirectUri,
  );
}

/**
 * The server wants a person to log in: hand the authorization URL to the authorizer, check the
 * issuer its redirect names, and `finish` with the code it brings back (the transport's
 * finishAuth, or the SDK's auth() when no transport is open yet). False when nobody can (no
 * authorizer, no code).
 */
export async function authorize(
  server: McpServerConfig,
  options: DialOptions,
  auth: ReturnType<typeof oauthProviderFor>,
  finish: (code: string) => Promise<void>,
  steps?: OAuthStepRecorder,
): Promise<boolean> {
  const answer = await askAuthorizer(server, options, auth);
  if (!answer) return false;
  const { params, bare } = answer;
  const code = params.get("code");
  try {
    if (!code) {
      const error = params.get("error");
      if (!error) return false;
      throw new Error(
        `the authorization server answered ${error}${params.get("error_description") ? `: ${params.get("error_description")}` : ""}`,
      );
    }
    checkResponseIssuer(
      params.get("iss") ?? undefined,
      (await auth.discoveryState?.())?.authorizationServerMetadata as never,
      bare,
    );
    await finish(code);
  } catch (error) {
    const step = steps?.describe();
    throw new ToolSourceError<McpServerErrorCode>(
      "connect_failed",
      `Logging in to "${server.name}" failed: ${error instanceof Error ? error.message : String(error)}${step ? ` (${step})` : ""}`,
      { cause: error },
    );
  }
  return true;
}

/** The finish of a login on an open transport: its own `finishAuth`. */
export function finishOn(transport: Transport): (code: string) => Promise<void> {
  return (code) =>
    (transport as StreamableHTTPClientTransport | SSEClientTransport).finishAuth(code);
}

export function oauthSteps(serverUrl: string): OAuthStepRecorder {
  return new OAuthStepRecorder(serverUrl);
}

/** How the channel POSTs its own calls to a Streamable HTTP server (see HttpCallLane). */
export function callLaneFor(
  transport: Transport,
  url: string,
  headers: Record<string, string>,
  authProvider: OAuthClientProvider | undefined,
): HttpCallLane | undefined {
  // Only a Streamable HTTP transport has one; the legacy SSE one keeps the SDK path.
  if (!(transport instanceof StreamableHTTPClientTransport)) return undefined;
  return new HttpCallLane(new URL(url), transport, headers, authProvider, LEGACY_LANE);
}

/** A 2025-11-25 lane fails as the 1.x transport does. */
const LEGACY_LANE: LaneEra = {
  httpError: (status, message) => new StreamableHTTPError(status, message),
};

export const support: RemoteSupport = {
  sessionIdOf(transport) {
    return transport instanceof StreamableHTTPClientTransport ? transport.sessionId : undefined;
  },
  carriesCalls(transport) {
    return transport instanceof StreamableHTTPClientTransport;
  },
  isUnauthorized(error) {
    return error instanceof UnauthorizedError;
  },
  httpStatusOf(error) {
    return error instanceof StreamableHTTPError ? error.code : undefined;
  },
  async terminateSession(transport) {
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId)
      await transport.terminateSession();
  },
};

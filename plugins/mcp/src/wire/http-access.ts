import http from "node:http";
import {
  auth,
  extractWWWAuthenticateParams,
  type FetchLike,
  type OAuthClientProvider,
  type OAuthTokens,
  SdkErrorCode,
  SdkHttpError,
  UnauthorizedError,
} from "@modelcontextprotocol/client";

/** How many redirects within the server's origin one request follows. */
const MAX_REDIRECTS = 5;
/** How many times one request asks for a wider scope (403 `insufficient_scope`). */
const MAX_STEP_UPS = 2;

/** A request to the server and the response whose headers came. */
export interface Exchange {
  request: http.ClientRequest;
  response: http.IncomingMessage;
}

/** What one request to the server is: its method, its own headers, its body. */
export interface Outgoing {
  method: "POST" | "GET" | "DELETE";
  /** Where it goes, when not to the server's URL (a legacy SSE server's endpoint). */
  url?: URL;
  headers: Record<string, string>;
  body?: string;
  /** Called with the request as soon as it exists (to end it early). */
  started?: (request: http.ClientRequest) => void;
}

/** Where one request stands in what it may be sent again for (see HttpAccess.again). */
export interface Attempt {
  url: URL;
  redirects: number;
  authorized: boolean;
  nonceRetried: boolean;
  stepUps: number;
  /** The DPoP session its proof was made with, if the token is bound to one. */
  dpop?: DpopProofs | undefined;
}

/**
 * What every request to one MCP server settles besides its answer, whoever sends it: the OAuth
 * token (Bearer, or DPoP with a proof per request), a 401 handed to the SDK's `auth()`
 * (discovery, registration, refresh, a person's login) and the request sent again when it
 * authorized, a 403 `insufficient_scope` the same with the scope the server named, a DPoP
 * nonce the server demands, and redirects within the origin. None of those were run by the
 * server, so sending again runs nothing twice.
 */
export class HttpAccess {
  constructor(
    readonly url: URL,
    private readonly provider: OAuthClientProvider | undefined,
    /** The fetch OAuth's discovery and token requests go through (it records the steps). */
    private readonly authFetch: FetchLike | undefined,
  ) {}

  attempt(url: URL = this.url): Attempt {
    return { url, redirects: 0, authorized: false, nonceRetried: false, stepUps: 0 };
  }

  /**
   * The Authorization header (and DPoP proof) the provider's tokens call for. Without a token,
   * or with a Bearer one a provider holds at hand, nothing is awaited: the request goes out in
   * the same turn as the call that made it.
   */
  credentials(
    method: string,
    attempt: Attempt,
  ): Record<string, string> | Promise<Record<string, string>> {
    const tokens = this.provider?.tokens();
    if (tokens instanceof Promise)
      return tokens.then((held) => this.withTokens(method, attempt, held));
    return this.withTokens(method, attempt, tokens);
  }

  private withTokens(
    method: string,
    attempt: Attempt,
    tokens: OAuthTokens | undefined,
  ): Record<string, string> | Promise<Record<string, string>> {
    attempt.dpop = undefined;
    if (!tokens) return {};
    if (tokens.token_type?.toLowerCase() !== "dpop" || !this.provider?.dpop)
      return { authorization: `Bearer ${tokens.access_token}` };
    return this.proofFor(method, attempt, tokens.access_token);
  }

  private async proofFor(
    method: string,
    attempt: Attempt,
    token: string,
  ): Promise<Record<string, string>> {
    const dpop = await this.provider?.dpop?.();
    if (!dpop) return { authorization: `Bearer ${token}` };
    attempt.dpop = dpop;
    const proof = await dpop.buildProof({ htm: method, htu: attempt.url, accessToken: token });
    return { authorization: `DPoP ${token}`, dpop: proof };
  }

  /**
   * Whether `response` asks for the request again (after a login, a nonce, a move), with what
   * changes in `attempt`; false when it is the server's answer. A refusal that cannot be
   * settled throws: a person must log in (UnauthorizedError), or the status.
   */
  async again(response: http.IncomingMessage, attempt: Attempt): Promise<boolean> {
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location && attempt.redirects < MAX_REDIRECTS) {
      const target = new URL(location, attempt.url);
      response.resume();
      if (target.origin !== this.url.origin)
        throw refused(status, `Refused a redirect to another origin (${target.origin}).`);
      attempt.url = target;
      attempt.redirects += 1;
      return true;
    }
    if (status !== 401 && status !== 403) return false;
    const challenge = extractWWWAuthenticateParams(responseOf(response));
    response.resume();
    if (status === 401 && attempt.dpop && !attempt.nonceRetried && nonceDemanded(response)) {
      attempt.dpop.rememberNonce(attempt.url, String(response.headers["dpop-nonce"]));
      attempt.nonceRetried = true;
      return true;
    }
    if (!this.provider) throw refused(status, statusText(status));
    if (
      status === 403 &&
      (challenge.error !== "insufficient_scope" || attempt.stepUps >= MAX_STEP_UPS)
    )
      throw refused(status, statusText(status));
    if (status === 401 && attempt.authorized)
      throw new UnauthorizedError("The server refused our new token.");
    const result = await auth(this.provider, {
      serverUrl: this.url,
      ...(challenge.resourceMetadataUrl
        ? { resourceMetadataUrl: challenge.resourceMetadataUrl }
        : {}),
      ...(challenge.scope ? { scope: challenge.scope } : {}),
      ...(this.authFetch ? { fetchFn: this.authFetch } : {}),
    });
    // A person has to log in (the provider holds the URL): the session's to arrange.
    if (result !== "AUTHORIZED") throw new UnauthorizedError();
    if (status === 401) attempt.authorized = true;
    else attempt.stepUps += 1;
    return true;
  }

  /** A login's last step: the code (and issuer) the person's redirect brought, for tokens. */
  async finishAuth(authorizationCode: string, iss: string | undefined): Promise<void> {
    if (!this.provider) throw new UnauthorizedError("No OAuth client for this server.");
    const result = await auth(this.provider, {
      serverUrl: this.url,
      authorizationCode,
      ...(iss ? { iss } : {}),
      ...(this.authFetch ? { fetchFn: this.authFetch } : {}),
    });
    if (result !== "AUTHORIZED") throw new UnauthorizedError("Failed to authorize.");
  }
}

type DpopProofs = NonNullable<Awaited<ReturnType<NonNullable<OAuthClientProvider["dpop"]>>>>;

/** A refusal as the SDK's transports throw it: the status is what the session judges by. */
export function refused(status: number, message: string): SdkHttpError {
  return new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, message, { status });
}

/** The WWW-Authenticate challenge as a fetch Response, for the SDK's parser. */
function responseOf(response: http.IncomingMessage): Response {
  const challenge = response.headers["www-authenticate"];
  return new Response(null, {
    status: response.statusCode ?? 0,
    headers: challenge ? { "www-authenticate": String(challenge) } : {},
  });
}

/** RFC 9449 §9: a 401 asking for a proof with the nonce it sends. */
function nonceDemanded(response: http.IncomingMessage): boolean {
  const challenge = String(response.headers["www-authenticate"] ?? "");
  return (
    /^\s*dpop\b/i.test(challenge) &&
    /error="?use_dpop_nonce/i.test(challenge) &&
    typeof response.headers["dpop-nonce"] === "string"
  );
}

function statusText(status: number): string {
  return `The server refused the request (${status} ${http.STATUS_CODES[status] ?? ""}).`;
}

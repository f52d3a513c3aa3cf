import type { DpopSession } from "@modelcontextprotocol/client";

type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** What the fetch needs of an OAuth client provider that may bind its tokens to a DPoP key. */
export interface DpopCapable {
  dpop?(): Promise<DpopSession | undefined>;
  tokens(): unknown;
  discoveryState?(): unknown;
}

/**
 * DPoP (RFC 9449) for the 1.x SDK, whose OAuth client and HTTP transport have none: the token
 * request carries a proof, and so does every request to the MCP server, whose bound token goes
 * out as `Authorization: DPoP` (the v2 client's own middleware does that part). A nonce a server
 * demands (`use_dpop_nonce`) is taken and the request signed again, once. Requests elsewhere
 * (discovery, registration) pass untouched, and so does everything while the provider has no
 * DPoP session (its authorization server does not bind tokens).
 */
export function dpopFetch(provider: DpopCapable, mcpUrl: string, next: Fetch): Fetch {
  let resource: Fetch | undefined;
  const server = endpointOf(mcpUrl);
  return async (input, init) => {
    const session = await provider.dpop?.();
    if (!session) return next(input, init);
    const url = new URL(input instanceof URL ? input.href : input);
    if (endpointOf(url) === server) {
      if (!resource) {
        const { withDpopFromProvider } = await import("@modelcontextprotocol/client");
        resource = withDpopFromProvider(provider as never)(next as never) as Fetch;
      }
      return resource(input, init);
    }
    const state = (await provider.discoveryState?.()) as
      | { authorizationServerMetadata?: { token_endpoint?: string } }
      | undefined;
    const tokenEndpoint = state?.authorizationServerMetadata?.token_endpoint;
    const post = (init?.method ?? "GET").toUpperCase() === "POST";
    if (!post || !tokenEndpoint || endpointOf(url) !== endpointOf(tokenEndpoint))
      return next(input, init);
    return tokenRequest(session, url, (headers) => next(input, { ...init, headers }), init);
  };
}

/** A token request with a proof (no `ath`: it presents no token), again once for a nonce. */
async function tokenRequest(
  session: DpopSession,
  url: URL,
  send: (headers: Headers) => Promise<Response>,
  init: RequestInit | undefined,
): Promise<Response> {
  const signed = async () => {
    const headers = new Headers(init?.headers);
    headers.set("DPoP", await session.buildProof({ htm: "POST", htu: url }));
    return send(headers);
  };
  let response = await signed();
  if (response.status === 400 && response.headers.has("dpop-nonce")) {
    const error = (await response
      .clone()
      .json()
      .catch(() => undefined)) as { error?: unknown } | undefined;
    if (error?.error === "use_dpop_nonce") {
      session.observeNonce(response, url);
      await response.body?.cancel();
      response = await signed();
    }
  }
  session.observeNonce(response, url);
  return response;
}

/** Origin and path: what a proof's `htu` names (no query, no fragment). */
function endpointOf(url: string | URL): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

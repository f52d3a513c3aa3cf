import type {
  OAuthClientInformation,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from "@modelcontextprotocol/client";

export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** Where the assertion comes from, asked at each token request (workload tokens rotate). */
export type AssertionSource = (
  discovery: OAuthDiscoveryState | undefined,
  scope: string | undefined,
) => Promise<string>;

/**
 * A JWT bearer grant (RFC 7523): no person logs in; an assertion someone else signed is
 * presented at the token endpoint for an access token. Workload identity federation hands it a
 * workload's own token (a CI job's, a Kubernetes service account's); cross-app access an
 * identity assertion its identity provider issued. The SDK runs discovery and the token
 * request; this supplies the grant. A refused assertion is the answer: the SDK surfaces it, and
 * no other grant is tried.
 */
export class JwtBearerProvider implements OAuthClientProvider {
  private current: OAuthTokens | undefined;
  private discovery: OAuthDiscoveryState | undefined;

  constructor(
    /** With a `clientSecret` (even empty) the client is confidential and uses Basic. */
    private readonly client: { clientId: string; clientSecret?: string; scope?: string },
    private readonly assertion: AssertionSource,
  ) {}

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "PseudoClaude",
      redirect_uris: [],
      grant_types: [JWT_BEARER],
      token_endpoint_auth_method:
        this.client.clientSecret === undefined ? "none" : "client_secret_basic",
      ...(this.client.scope ? { scope: this.client.scope } : {}),
    };
  }

  clientInformation(): OAuthClientInformation {
    return {
      client_id: this.client.clientId,
      ...(this.client.clientSecret ? { client_secret: this.client.clientSecret } : {}),
    };
  }

  tokens(): OAuthTokens | undefined {
    return this.current;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.current = tokens;
  }

  redirectToAuthorization(): void {
    throw new Error("A JWT bearer grant never sends a person to the authorization server.");
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    return "";
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  /**
   * A confidential client authenticates with HTTP Basic (RFC 6749 2.3.1); a public one names
   * itself in the request (RFC 7523 3: the assertion is the credential).
   */
  addClientAuthentication = async (headers: Headers, params: URLSearchParams): Promise<void> => {
    const { clientId, clientSecret } = this.client;
    if (clientSecret === undefined) {
      params.set("client_id", clientId);
      return;
    }
    const pair = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
    headers.set("Authorization", `Basic ${Buffer.from(pair).toString("base64")}`);
  };

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    return new URLSearchParams({
      grant_type: JWT_BEARER,
      assertion: await this.assertion(this.discovery, scope),
      ...(scope ? { scope } : {}),
    });
  }
}

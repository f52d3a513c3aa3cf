import type {
  OAuthClientProvider,
  OAuthDiscoveryState,
} from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformation,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { ToolSourceError } from "@pseudoclaude/core";
import type { McpServerErrorCode } from "../mcp-errors.js";
import type { OAuthSettings } from "../oauth/oauth-settings.js";

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";
const ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token";

/**
 * Cross-app access (enterprise-managed authorization): no person at the MCP server's
 * authorization server. The person's ID token is exchanged at their identity provider for an
 * identity assertion grant (RFC 8693, token type ID-JAG) addressed to the authorization server
 * the SDK discovered, which is then presented there as a JWT bearer grant (RFC 7523) with our
 * client's credentials. The SDK runs discovery and the token request; this supplies the grant.
 */
export class CrossAppAccessProvider implements OAuthClientProvider {
  private current: OAuthTokens | undefined;
  private discovery: OAuthDiscoveryState | undefined;

  constructor(
    private readonly serverUrl: string,
    private readonly settings: OAuthSettings & {
      clientId: string;
      idp: NonNullable<OAuthSettings["idp"]>;
    },
  ) {}

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "PseudoClaude",
      redirect_uris: [],
      grant_types: [JWT_BEARER],
      token_endpoint_auth_method: "client_secret_basic",
      ...(this.settings.scope ? { scope: this.settings.scope } : {}),
    };
  }

  clientInformation(): OAuthClientInformation {
    return {
      client_id: this.settings.clientId,
      ...(this.settings.clientSecret ? { client_secret: this.settings.clientSecret } : {}),
    };
  }

  tokens(): OAuthTokens | undefined {
    return this.current;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.current = tokens;
  }

  redirectToAuthorization(): void {
    throw new Error("Cross-app access never sends a person to the authorization server.");
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

  /** The client authenticates to the authorization server with HTTP Basic (RFC 6749 2.3.1). */
  addClientAuthentication = async (headers: Headers): Promise<void> => {
    const encode = (value: string) => encodeURIComponent(value);
    const pair = `${encode(this.settings.clientId)}:${encode(this.settings.clientSecret ?? "")}`;
    headers.set("Authorization", `Basic ${Buffer.from(pair).toString("base64")}`);
  };

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const audience =
      this.discovery?.authorizationServerMetadata?.issuer ?? this.discovery?.authorizationServerUrl;
    const resource = this.discovery?.resourceMetadata?.resource ?? this.serverUrl;
    const { idp } = this.settings;
    const exchange = new URLSearchParams({
      grant_type: TOKEN_EXCHANGE,
      requested_token_type: ID_JAG,
      subject_token: idp.idToken,
      subject_token_type: ID_TOKEN,
      client_id: idp.clientId,
      ...(audience ? { audience: String(audience) } : {}),
      resource: String(resource),
      ...(scope ? { scope } : {}),
      ...(idp.clientSecret ? { client_secret: idp.clientSecret } : {}),
    });
    const response = await fetch(idp.tokenEndpoint, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: exchange,
    });
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok || typeof body.access_token !== "string") {
      throw new ToolSourceError<McpServerErrorCode>(
        "connect_failed",
        `Cross-app access: the token exchange at the identity provider ${idp.tokenEndpoint} failed (HTTP ${response.status}${typeof body.error === "string" ? `, ${body.error}` : ""}${typeof body.error_description === "string" ? `: ${body.error_description}` : ""}).`,
      );
    }
    return new URLSearchParams({
      grant_type: JWT_BEARER,
      assertion: body.access_token,
      ...(scope ? { scope } : {}),
    });
  }
}

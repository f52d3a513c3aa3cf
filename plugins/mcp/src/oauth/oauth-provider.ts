import { readFile } from "node:fs/promises";
import type {
  DpopSession,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from "@modelcontextprotocol/client";
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from "@modelcontextprotocol/client";
import type { CredentialStore } from "./credential-store.js";
import { crossAppAccessProvider } from "./cross-app-access-grant.js";
import { dpopSessionFor } from "./dpop-key.js";
import { checkMetadataIssuer } from "./issuer-checks.js";
import { JwtBearerProvider } from "./jwt-bearer-grant.js";
import type { OAuthSettings } from "./oauth-settings.js";

/** The loopback address the authorization server sends people back to. */
export const DEFAULT_REDIRECT_URI = "http://127.0.0.1:33418/callback";

/**
 * The SDK's OAuth client provider over our credential store: the SDK does discovery (resource
 * and authorization server metadata, path-aware, OIDC too), PKCE, resource indicators, scope
 * selection, registration and refresh; this keeps what it learns, per server URL, and records
 * the authorization URL when a person has to log in.
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  /** Set when the SDK needs a person to visit this URL; the dialer hands it to an authorizer. */
  pendingAuthorization: URL | undefined;
  /** Present only when configured: the SDK then uses the URL as the client id. */
  readonly clientMetadataUrl?: string;
  private verifier = "";
  private dpopSession: Promise<DpopSession | undefined> | undefined;

  constructor(
    private readonly serverUrl: string,
    private readonly settings: OAuthSettings,
    private readonly store: CredentialStore,
    private readonly redirectUri: string = DEFAULT_REDIRECT_URI,
    private readonly clientName = "PseudoClaude",
  ) {
    if (settings.clientMetadataUrl !== undefined)
      this.clientMetadataUrl = settings.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    const metadata: OAuthClientMetadata & { application_type: string } = {
      client_name: this.clientName,
      // A program on the user's machine with a loopback redirect: a native client (RFC 8252),
      // which the 2026-07-28 revision asks dynamic registration to say (SEP-837).
      application_type: "native",
      redirect_uris: [this.redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method:
        this.settings.tokenEndpointAuthMethod ??
        (this.settings.clientSecret ? "client_secret_basic" : "none"),
      ...(this.settings.scope ? { scope: this.settings.scope } : {}),
    };
    return metadata;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    if (this.settings.clientId)
      return {
        client_id: this.settings.clientId,
        ...(this.settings.clientSecret ? { client_secret: this.settings.clientSecret } : {}),
      };
    return this.store.get(this.serverUrl).client as OAuthClientInformationMixed | undefined;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.store.update(this.serverUrl, (current) => ({ ...current, client: { ...client } }));
  }

  tokens(): OAuthTokens | undefined {
    const stored = this.store.get(this.serverUrl).tokens;
    if (!stored) return undefined;
    const { obtained_at: obtainedAt, access_token, token_type, expires_in, ...rest } = stored;
    // A file edited by hand (or by another program) may hold anything: no token is no token.
    if (typeof access_token !== "string" || typeof token_type !== "string") return undefined;
    const tokens: OAuthTokens = { ...rest, access_token, token_type };
    // Report what is left of its lifetime, so the SDK refreshes before it runs out.
    if (typeof expires_in === "number")
      tokens.expires_in =
        typeof obtainedAt === "number"
          ? Math.max(0, Math.floor(expires_in - (Date.now() - obtainedAt) / 1000))
          : expires_in;
    return tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.store.update(this.serverUrl, (current) => ({
      ...current,
      tokens: { ...tokens, obtained_at: Date.now() },
    }));
  }

  redirectToAuthorization(url: URL): void {
    // PKCE S256 is what keeps a stolen code useless: a server that does not advertise it is
    // refused before anyone is sent there (one without metadata at all is the 2025-03-26
    // fallback, which assumes it).
    const metadata = this.discoveryState()?.authorizationServerMetadata as
      | { code_challenge_methods_supported?: string[]; issuer?: string }
      | undefined;
    if (metadata && !metadata.code_challenge_methods_supported?.includes("S256")) {
      throw new Error(
        `Authorization refused: the authorization server ${metadata.issuer ?? ""} does not advertise PKCE with S256 (code_challenge_methods_supported), so no login is started.`,
      );
    }
    this.pendingAuthorization = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.store.update(this.serverUrl, (current) => ({ ...current, discovery: { ...state } }));
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.store.get(this.serverUrl).discovery as OAuthDiscoveryState | undefined;
  }

  /**
   * The DPoP key session, once discovery found an authorization server that binds tokens to
   * one: the v2 client signs its token requests and its requests to the server with it.
   */
  dpop(): Promise<DpopSession | undefined> {
    const metadata = this.discoveryState()?.authorizationServerMetadata;
    if (!metadata) return Promise.resolve(undefined);
    this.dpopSession ??= dpopSessionFor(this.store, this.serverUrl, metadata);
    return this.dpopSession;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "verifier") {
      this.verifier = "";
      return;
    }
    this.store.update(this.serverUrl, (current) => {
      const next = { ...current };
      if (scope === "all" || scope === "tokens") delete next.tokens;
      if (scope === "all" || scope === "client") delete next.client;
      if (scope === "all" || scope === "discovery") delete next.discovery;
      return next;
    });
  }
}

/** The provider for a server's `oauth` settings: machine-to-machine grants use the SDK's own. */
export function oauthProviderFor(
  serverUrl: string,
  settings: OAuthSettings,
  store: CredentialStore,
  redirectUri?: string,
): OAuthClientProvider & { pendingAuthorization?: URL | undefined } {
  return withMetadataIssuerCheck(providerFor(serverUrl, settings, store, redirectUri));
}

/**
 * Every grant's discovery goes through saveDiscoveryState before an endpoint is used: metadata
 * that names another issuer stops the login there (the 1.x SDK does not check it).
 */
function withMetadataIssuerCheck<P extends OAuthClientProvider>(provider: P): P {
  const save = provider.saveDiscoveryState?.bind(provider);
  provider.saveDiscoveryState = (state) => {
    checkMetadataIssuer(String(state.authorizationServerUrl), state.authorizationServerMetadata);
    return save?.(state);
  };
  return provider;
}

function providerFor(
  serverUrl: string,
  settings: OAuthSettings,
  store: CredentialStore,
  redirectUri?: string,
): OAuthClientProvider & { pendingAuthorization?: URL | undefined } {
  if (settings.grant === "cross_app_access" && settings.clientId && settings.idp)
    return crossAppAccessProvider(serverUrl, {
      ...settings,
      clientId: settings.clientId,
      idp: settings.idp,
    });
  if (settings.grant === "jwt_bearer" && settings.clientId)
    return new JwtBearerProvider(
      {
        clientId: settings.clientId,
        ...(settings.clientSecret ? { clientSecret: settings.clientSecret } : {}),
        ...(settings.scope ? { scope: settings.scope } : {}),
      },
      workloadAssertion(settings),
    );
  if (settings.grant === "client_credentials" && settings.clientId) {
    if (settings.tokenEndpointAuthMethod === "private_key_jwt" && settings.privateKeyPem)
      return new PrivateKeyJwtProvider({
        clientId: settings.clientId,
        privateKey: settings.privateKeyPem,
        algorithm: settings.signingAlgorithm ?? "RS256",
        ...(settings.scope ? { scope: settings.scope } : {}),
      });
    return new ClientCredentialsProvider({
      clientId: settings.clientId,
      clientSecret: settings.clientSecret ?? "",
      ...(settings.scope ? { scope: settings.scope } : {}),
    });
  }
  return new StoredOAuthProvider(serverUrl, settings, store, redirectUri);
}

/**
 * The workload's assertion: the configured value, or the file's content read for each token
 * request (a platform rotates the token in that file: a Kubernetes projected service account
 * token, a CI job's OIDC token written to disk).
 */
function workloadAssertion(settings: OAuthSettings): () => Promise<string> {
  const { assertion, assertionFile } = settings;
  return async () => {
    if (assertion) return assertion;
    if (!assertionFile) throw new Error("oauth.assertion or oauth.assertion_file is required");
    const text = (await readFile(assertionFile, "utf8")).trim();
    if (!text) throw new Error(`the assertion file ${assertionFile} is empty`);
    return text;
  };
}

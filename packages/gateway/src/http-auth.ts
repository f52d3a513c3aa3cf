import { timingSafeEqual } from "node:crypto";
import {
  type AuthInfo,
  OAuthError,
  OAuthErrorCode,
  type OAuthMetadata,
  type OAuthTokenVerifier,
} from "@modelcontextprotocol/server";
import { createRemoteJWKSet, jwtVerify } from "jose";

/**
 * How HTTP clients prove who they are. `token`: one bearer token the person gives their
 * clients. `oauth`: the gateway is an OAuth resource server; an authorization server issues
 * JWT access tokens for it (audience: the gateway's URL, RFC 8707), and clients find that
 * server through the protected resource metadata (RFC 9728). `none`: loopback only.
 */
export type GatewayAuth =
  | { kind: "none" }
  | { kind: "token"; token: string }
  | {
      kind: "oauth";
      /** The authorization server's issuer URL. */
      issuer: string;
      /** Scopes every token must carry. */
      scopes?: readonly string[] | undefined;
    };

/** The smallest token the gateway takes: anything shorter is guessable. */
export const MIN_TOKEN_LENGTH = 16;

const TOKEN_HORIZON = () => Math.floor(Date.now() / 1000) + 24 * 60 * 60;

/** Checks the one configured bearer token in constant time. */
export function staticTokenVerifier(expected: string): OAuthTokenVerifier {
  const want = Buffer.from(expected);
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const got = Buffer.from(token);
      if (got.length !== want.length || !timingSafeEqual(got, want))
        throw new OAuthError(OAuthErrorCode.InvalidToken, "The token is not this gateway's.");
      // The SDK's bearer check wants an expiry; a configured token lasts while the gateway runs.
      return { token, clientId: "bearer-token", scopes: [], expiresAt: TOKEN_HORIZON() };
    },
  };
}

/** The authorization server's metadata (RFC 8414, then OpenID discovery). */
export async function discoverIssuer(issuer: string): Promise<OAuthMetadata> {
  const base = new URL(issuer);
  const suffix = base.pathname === "/" ? "" : base.pathname.replace(/\/$/, "");
  const candidates = [
    new URL(`/.well-known/oauth-authorization-server${suffix}`, base),
    new URL(`${suffix}/.well-known/openid-configuration`, base),
  ];
  const failures: string[] = [];
  for (const url of candidates) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      if (!response.ok) {
        failures.push(`${url}: HTTP ${response.status}`);
        continue;
      }
      const metadata = (await response.json()) as OAuthMetadata;
      if (metadata.issuer !== issuer && metadata.issuer !== base.href)
        throw new Error(`${url} names issuer ${metadata.issuer}, not ${issuer}`);
      return metadata;
    } catch (error) {
      failures.push(`${url}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(
    `Could not read the authorization server's metadata for ${issuer} (${failures.join("; ")}).`,
  );
}

/**
 * Verifies JWT access tokens: signed by a key of the issuer's JWKS, issued by it, for this
 * gateway (audience = its URL), not expired, with the required scopes.
 */
export function jwtVerifier(
  metadata: OAuthMetadata,
  resource: URL,
  scopes: readonly string[] = [],
): OAuthTokenVerifier {
  const jwksUri = (metadata as { jwks_uri?: string }).jwks_uri;
  if (!jwksUri)
    throw new Error(
      `The authorization server ${metadata.issuer} publishes no jwks_uri; the gateway verifies JWT access tokens with it.`,
    );
  const keys = createRemoteJWKSet(new URL(jwksUri));
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      let payload: Awaited<ReturnType<typeof jwtVerify>>["payload"];
      try {
        ({ payload } = await jwtVerify(token, keys, {
          issuer: metadata.issuer,
          audience: [resource.href, resource.href.replace(/\/$/, "")],
        }));
      } catch (error) {
        throw new OAuthError(
          OAuthErrorCode.InvalidToken,
          `The token was refused: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      const granted = typeof payload.scope === "string" ? payload.scope.split(" ") : [];
      const missing = scopes.filter((scope) => !granted.includes(scope));
      if (missing.length > 0)
        throw new OAuthError(
          OAuthErrorCode.InsufficientScope,
          `The token lacks scope ${missing.join(" ")}.`,
        );
      const clientId =
        typeof payload.client_id === "string"
          ? payload.client_id
          : typeof payload.azp === "string"
            ? payload.azp
            : (payload.sub ?? "unknown");
      const info: AuthInfo = {
        token,
        clientId,
        scopes: granted,
        resource,
        extra: payload.sub ? { sub: payload.sub } : {},
      };
      if (payload.exp !== undefined) info.expiresAt = payload.exp;
      return info;
    },
  };
}

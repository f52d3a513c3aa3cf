import type { OAuthDiscoveryState } from "@modelcontextprotocol/client";
import { ToolSourceError } from "@pseudoclaude/core";
import type { McpServerErrorCode } from "../mcp-errors.js";
import { JwtBearerProvider } from "./jwt-bearer-grant.js";
import type { OAuthSettings } from "./oauth-settings.js";

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";
const ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token";

/**
 * Cross-app access (enterprise-managed authorization): no person at the MCP server's
 * authorization server. The person's ID token is exchanged at their identity provider for an
 * identity assertion grant (RFC 8693, token type ID-JAG) addressed to the authorization server
 * the SDK discovered, which is then presented there as a JWT bearer grant (RFC 7523) with our
 * client's credentials.
 */
export function crossAppAccessProvider(
  serverUrl: string,
  settings: OAuthSettings & { clientId: string; idp: NonNullable<OAuthSettings["idp"]> },
): JwtBearerProvider {
  return new JwtBearerProvider(
    {
      clientId: settings.clientId,
      // Basic authentication even without a secret, as the enterprise profile has it.
      clientSecret: settings.clientSecret ?? "",
      ...(settings.scope ? { scope: settings.scope } : {}),
    },
    (discovery, scope) => identityAssertion(serverUrl, settings.idp, discovery, scope),
  );
}

/** The ID-JAG the identity provider issues for the person's ID token (RFC 8693 exchange). */
async function identityAssertion(
  serverUrl: string,
  idp: NonNullable<OAuthSettings["idp"]>,
  discovery: OAuthDiscoveryState | undefined,
  scope: string | undefined,
): Promise<string> {
  const audience =
    discovery?.authorizationServerMetadata?.issuer ?? discovery?.authorizationServerUrl;
  const resource = discovery?.resourceMetadata?.resource ?? serverUrl;
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
  return body.access_token;
}

/**
 * Checks on who an authorization server says it is, which the 1.x SDK's OAuth client does not
 * make; both eras' logins go through them.
 *
 * - RFC 8414 §3.3: the `issuer` in an authorization server's metadata must be the identifier its
 *   metadata was fetched for, or none of its endpoints is used (a metadata document that names
 *   another issuer is a mix-up or an impersonation).
 * - RFC 9207 (`iss` in the authorization response): a redirect that names an issuer must name
 *   that one, compared as strings, without normalising; a server that advertises
 *   `authorization_response_iss_parameter_supported` must name one.
 */

interface ServerMetadata {
  issuer?: unknown;
  authorization_response_iss_parameter_supported?: unknown;
}

/** The refusal of a login whose authorization server is not the one it claims to be. */
export class IssuerError extends Error {
  override readonly name = "IssuerError";
}

/**
 * The authorization server's metadata against the identifier it was fetched for. One tolerance:
 * the SDK itself adds a trailing `/` to an identifier it derives from the server's origin
 * (servers without protected-resource metadata), so that `/` alone is not a mismatch.
 */
export function checkMetadataIssuer(
  authorizationServerUrl: string,
  metadata: ServerMetadata | undefined,
): void {
  if (!metadata || metadata.issuer === undefined) return;
  const expected = authorizationServerUrl;
  const issuer = metadata.issuer;
  if (issuer === expected || (expected.endsWith("/") && issuer === expected.slice(0, -1))) return;
  throw new IssuerError(
    `Authorization refused: the authorization server metadata for ${expected} names the issuer ${JSON.stringify(issuer)} (RFC 8414 §3.3 requires the same identifier), so none of its endpoints is used.`,
  );
}

/**
 * The `iss` of an authorization response against the issuer of the metadata the login used
 * (none recorded: nothing to compare). `bare` says the authorizer handed back only the code, so
 * whether the redirect carried `iss` is unknown.
 */
export function checkResponseIssuer(
  iss: string | undefined,
  metadata: ServerMetadata | undefined,
  bare: boolean,
): void {
  if (!metadata || typeof metadata.issuer !== "string") return;
  if (iss === undefined) {
    if (metadata.authorization_response_iss_parameter_supported !== true) return;
    throw new IssuerError(
      bare
        ? `Authorization refused: ${metadata.issuer} names itself (iss) in its redirects, and the authorizer returned only the code. Return the redirect's query (URLSearchParams) so the issuer can be checked.`
        : `Authorization refused: ${metadata.issuer} advertises that its redirects name it (iss), and this one did not (RFC 9207): it may come from another server.`,
    );
  }
  if (iss !== metadata.issuer)
    throw new IssuerError(
      `Authorization refused: the redirect names the issuer ${JSON.stringify(iss)}, not ${JSON.stringify(metadata.issuer)} whose login was started (RFC 9207): it may come from another server.`,
    );
}

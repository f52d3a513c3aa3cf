// A small OAuth authorization server that issues JWT access tokens, over real HTTP on
// 127.0.0.1: its metadata (RFC 8414) and its JWKS. Tokens are signed by the test (`issue`) with
// whatever audience, scope and expiry a case needs.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";

export interface JwtIssuer {
  readonly issuer: string;
  issue(claims: { aud: string; scope?: string; sub?: string; expiresIn?: string }): Promise<string>;
  close(): Promise<void>;
}

export async function startJwtIssuer(): Promise<JwtIssuer> {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "ES256", use: "sig" };
  const server = createServer((req, res) => {
    const send = (body: unknown) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.url === "/.well-known/oauth-authorization-server")
      return send({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
      });
    if (req.url === "/jwks") return send({ keys: [jwk] });
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    issue: ({ aud, scope, sub = "person@example.com", expiresIn = "5m" }) =>
      new SignJWT({ ...(scope ? { scope } : {}), client_id: "test-client" })
        .setProtectedHeader({ alg: "ES256", kid: "test-key" })
        .setIssuer(issuer)
        .setAudience(aud)
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime(expiresIn)
        .sign(privateKey),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

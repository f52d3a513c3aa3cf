import type { webcrypto } from "node:crypto";
import type { DpopKeyPair, DpopSession } from "@modelcontextprotocol/client";
import type { CredentialStore } from "./credential-store.js";

/** The one DPoP algorithm we sign with: ECDSA P-256, which every DPoP server takes. */
const ALG = "ES256";
const CURVE = { name: "ECDSA", namedCurve: "P-256" } as const;

interface StoredKey {
  alg: typeof ALG;
  privateJwk: webcrypto.JsonWebKey;
  publicJwk: webcrypto.JsonWebKey;
  thumbprint: string;
}

/**
 * The DPoP signing session for a server's login (RFC 9449), when its authorization server
 * advertises ES256 in `dpop_signing_alg_values_supported`; undefined otherwise (tokens stay
 * Bearer). Its tokens, the refresh token too, are bound to the key, so the key is kept with
 * them in the credentials file (as private as the refresh token it makes usable) and a restart
 * can still refresh. The v2 client signs the proofs; it loads only for such a server.
 */
export async function dpopSessionFor(
  store: CredentialStore,
  serverUrl: string,
  metadata: object | undefined,
): Promise<DpopSession | undefined> {
  const algs = (metadata as { dpop_signing_alg_values_supported?: unknown } | undefined)
    ?.dpop_signing_alg_values_supported;
  if (!Array.isArray(algs) || !algs.includes(ALG)) return undefined;
  const { DpopSession, generateDpopKeyPair } = await import("@modelcontextprotocol/client");
  let stored = store.get(serverUrl).dpop as StoredKey | undefined;
  if (stored?.alg !== ALG) {
    const pair = await generateDpopKeyPair({ alg: ALG, extractable: true });
    stored = {
      alg: ALG,
      privateJwk: await crypto.subtle.exportKey("jwk", pair.privateKey),
      publicJwk: pair.publicJwk as webcrypto.JsonWebKey,
      thumbprint: pair.thumbprint,
    };
    const key = stored;
    store.update(serverUrl, (current) => ({ ...current, dpop: { ...key } }));
  }
  const [privateKey, publicKey] = await Promise.all([
    crypto.subtle.importKey("jwk", stored.privateJwk, CURVE, false, ["sign"]),
    crypto.subtle.importKey("jwk", stored.publicJwk, CURVE, true, ["verify"]),
  ]);
  return DpopSession.create({
    keyPair: {
      privateKey,
      publicKey,
      publicJwk: publicJwkOf(stored.publicJwk),
      thumbprint: stored.thumbprint,
      alg: ALG,
    },
  });
}

/** The public key's members a proof's header carries (an EC key: kty, crv, x, y). */
function publicJwkOf(jwk: webcrypto.JsonWebKey): DpopKeyPair["publicJwk"] {
  const members: DpopKeyPair["publicJwk"] = {};
  for (const name of ["kty", "crv", "x", "y"] as const) {
    const value = jwk[name];
    if (typeof value === "string") members[name] = value;
  }
  return members;
}

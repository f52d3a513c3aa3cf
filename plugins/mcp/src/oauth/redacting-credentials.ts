import type { Redactor } from "@pseudoclaude/core/plugin";
import type { CredentialStore, ServerCredentials } from "./credential-store.js";

/** The fields of stored credentials that are secrets: shown nowhere, whatever fails. */
function secretsOf(credentials: ServerCredentials): unknown[] {
  return [
    credentials.tokens?.access_token,
    credentials.tokens?.refresh_token,
    credentials.tokens?.id_token,
    credentials.client?.client_secret,
    // The DPoP private key's secret part: with the refresh token, it is what refreshes.
    (credentials.dpop?.privateJwk as { d?: unknown } | undefined)?.d,
  ];
}

/**
 * A credential store whose tokens and client secrets are registered with the agent's redactor
 * as soon as they are read or written, so a token obtained while the agent runs (a login, a
 * refresh) is as hidden as a `${VAR}` in a header: from diagnostics, errors, events, logs and
 * what a server echoes back in a tool result.
 */
export function redactingCredentials(store: CredentialStore, redactor: Redactor): CredentialStore {
  const register = (credentials: ServerCredentials): ServerCredentials => {
    for (const value of secretsOf(credentials))
      if (typeof value === "string") redactor.addSecret(value);
    return credentials;
  };
  return {
    get: (serverUrl) => register(store.get(serverUrl)),
    update: (serverUrl, change) => store.update(serverUrl, (current) => register(change(current))),
    delete: (serverUrl) => store.delete(serverUrl),
  };
}

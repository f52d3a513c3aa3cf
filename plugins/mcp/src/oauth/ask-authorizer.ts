import type { McpServerConfig } from "../config/server-config.js";
import type { Authorizer } from "./oauth-settings.js";

/**
 * The person's part of a login, in either era: the authorization URL the SDK left with the
 * provider goes to the authorizer, and the redirect's query comes back (`bare` when the
 * authorizer returned only the code). Undefined when nobody can (no URL, no authorizer, no
 * answer).
 */
export async function askAuthorizer(
  server: McpServerConfig,
  options: { authorize?: Authorizer; signal: AbortSignal },
  provider: { pendingAuthorization?: URL | undefined; redirectUrl?: unknown },
): Promise<{ params: URLSearchParams; bare: boolean } | undefined> {
  const url = provider.pendingAuthorization;
  provider.pendingAuthorization = undefined;
  if (!url || !options.authorize || server.transport === "stdio") return undefined;
  const answer = await options.authorize({
    server: server.name,
    url,
    redirectUri: String(provider.redirectUrl ?? ""),
    signal: options.signal,
  });
  if (!answer) return undefined;
  return typeof answer === "string"
    ? { params: new URLSearchParams({ code: answer }), bare: true }
    : { params: answer, bare: false };
}

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { errorMessage } from "@pseudoclaude/core/plugin";
import type { McpServerConfig } from "../config/server-config.js";
import type { CredentialStore } from "../oauth/credential-store.js";
import { SdkDialer } from "../session/dialer.js";

export interface LoginOptions {
  credentials: CredentialStore;
  /** Show the person the URL (and open a browser where one is available). */
  show(url: URL): void;
  clientInfo?: { name: string; version: string };
  /** How long to wait for the person. Default 5 minutes. */
  timeoutMs?: number;
  /** Cancels the login (a Ctrl-C in chat): the listener closes and nothing is stored. */
  signal?: AbortSignal;
}

/**
 * Log in to one OAuth server the way a person does: the SDK discovers the authorization
 * server and registers (or uses the configured client); the browser goes to the authorization
 * URL and comes back to a listener on 127.0.0.1 at a random port, which takes the code; the
 * tokens are stored. The session used for it is closed at once.
 */
export async function loginToServer(server: McpServerConfig, options: LoginOptions): Promise<void> {
  if (server.transport === "stdio")
    throw new Error(`Server "${server.name}" runs over stdio; only http and sse servers log in.`);
  // A fresh login: the old client registration may name another redirect port.
  options.credentials.update(server.url, (current) =>
    current.discovery ? { discovery: current.discovery } : {},
  );
  const listener = createServer();
  let deliver: ((query: URLSearchParams) => void) | undefined;
  listener.on("request", (request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callback") {
      response.writeHead(404).end();
      return;
    }
    const code = url.searchParams.get("code") ?? undefined;
    const error = url.searchParams.get("error");
    response.writeHead(code ? 200 : 400, { "Content-Type": "text/plain; charset=utf-8" });
    response.end(
      code ? "Logged in. You can close this window." : `Login failed: ${error ?? "no code"}.`,
    );
    // The whole query: the dialer checks the issuer (iss) it names, and says an error it carries.
    deliver?.(url.searchParams);
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const { port } = listener.address() as AddressInfo;
  const timeoutMs = options.timeoutMs ?? 5 * 60_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const session = await new SdkDialer().dial(
      { ...server, connectTimeoutMs: Math.max(server.connectTimeoutMs, timeoutMs) },
      {
        signal,
        clientInfo: options.clientInfo ?? { name: "pseudoclaude", version: "0.1.0" },
        handlers: { roots: () => [] },
        credentials: options.credentials,
        redirectUri: `http://127.0.0.1:${port}/callback`,
        authorize: ({ url, signal }) =>
          new Promise<URLSearchParams>((resolve, reject) => {
            deliver = resolve;
            signal.addEventListener(
              "abort",
              () =>
                reject(
                  new Error(
                    timeout.aborted
                      ? "The login was not completed in time."
                      : `The login was cancelled (${errorMessage(signal.reason)}).`,
                  ),
                ),
              { once: true },
            );
            options.show(url);
          }),
      },
    );
    await session.close();
  } finally {
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  }
}

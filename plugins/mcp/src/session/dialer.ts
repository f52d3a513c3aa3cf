import { warmJsonSchemaCompiler } from "@pseudoclaude/core/plugin";
import type {
  HttpServerConfig,
  McpServerConfig,
  StdioServerConfig,
} from "../config/server-config.js";
import { type McpServerErrorCode, ToolSourceError } from "../mcp-errors.js";
import type { DialOptions, McpSession, SessionDialer } from "../mcp-session.js";
import { defaultCredentialStore, storedAuthorization } from "../oauth/credential-store.js";
import { Connection } from "../wire/connection.js";
import { StderrTail } from "../wire/stderr-tail.js";
import { stdioEndedEarly } from "../wire/stdio-failure.js";
import { stdioTransport } from "../wire/stdio-transport.js";
import type { EarlyStdio } from "./client-connect.js";
import { clientCapabilities } from "./era-handlers.js";
import {
  type EraVerdict,
  MODERN_PROTOCOL,
  PROBE_TIMEOUT_MS,
  probeStdioEra,
  type StdioProbe,
  UNSUPPORTED_PROTOCOL_VERSION,
  verdictOf,
} from "./era-probe.js";
import { probeHttpEra } from "./http-era-probe.js";

let client: Promise<typeof import("./client-connect.js")> | undefined;

/** The v2 client and our session on it, loaded once per process. */
function clientModule(): Promise<typeof import("./client-connect.js")> {
  client ??= import("./client-connect.js");
  return client;
}

/**
 * Loads the client while a server's era is being asked: the question waits on the server's
 * boot or the network, and the client's ~50-70 ms of loading would otherwise start only after
 * the answer. A remote server also gets what it is reached with (HTTP transports, OAuth). A
 * failed load is reported where the module is used, not here.
 */
function preloadFor(server: McpServerConfig): void {
  clientModule().catch(() => {});
  if (server.transport !== "stdio") import("./remote-transports.js").catch(() => {});
}

/**
 * Dials servers in the era they speak, on the official v2 client (client-connect.ts), which
 * loads on the first dial: 2026-07-28 for a server that answers `server/discover` with it,
 * 2025-11-25 otherwise. Over stdio the era is asked on the server's own process, so no server is
 * spawned twice; the verdict is kept for reconnects.
 */
export class SdkDialer implements SessionDialer {
  /** What this server turned out to speak, kept for reconnects (one dialer per server). */
  private verdict: Exclude<EraVerdict, { era: "gone" }> | undefined;

  /** The stderr of the process this dialer started last (a stdio server), bounded. */
  private tail: StderrTail | undefined;

  stderrTail(): readonly string[] {
    return this.tail?.snapshot() ?? [];
  }

  /** The era the last dial settled on: `modern` (2026-07-28) or `legacy`. */
  get era(): "modern" | "legacy" | undefined {
    return this.verdict?.era;
  }

  async dial(server: McpServerConfig, options: DialOptions): Promise<McpSession> {
    // Its tools' arguments are checked from the first call: the compiler warms up while the
    // server boots or answers.
    warmJsonSchemaCompiler();
    let early: EarlyStdio | undefined;
    /** The era question asked on this process, whose answer may still come. */
    let probe: StdioProbe | undefined;
    if (server.transport === "http" && server.protocol !== "2025-11-25") {
      if (!this.verdict) preloadFor(server);
      const verdict = await this.negotiateHttp(server, options);
      if (verdict.era === "modern") return this.dialModern(server, options, undefined, verdict);
      if (verdict.era === "legacy" && verdict.status === 401)
        return this.dialAfterLogin(server, options, verdict.challenge);
    }
    if (server.transport === "stdio") {
      early = this.spawn(server, options);
      if (server.protocol !== "2025-11-25") {
        if (!this.verdict) preloadFor(server);
        const asked = await this.negotiate(server, options, early);
        probe = asked.probe;
        const { verdict } = asked;
        if (verdict.era === "modern") return this.dialModern(server, options, early, verdict);
        if (verdict.era === "gone") {
          await early.connection.close();
          early = this.spawn(server, options);
          probe = undefined;
        }
      }
    }
    const legacy = clientModule();
    // A server that did not answer server/discover in time may still answer it while the 2025
    // client tries: the process is lent, so a late DiscoverResult can go on in 2026 on it.
    const lent = server.transport === "stdio" && server.protocol === "auto" ? early : undefined;
    lent?.connection.lend();
    try {
      const { connectSession } = await legacy;
      const session = await connectSession(server, options, early, undefined);
      await lent?.connection.keep(true);
      probe?.drop();
      return session;
    } catch (error) {
      // Refused naming 2026-07-28: the server is up and speaks it; its answer to the probe may
      // come just after the refusal (a server may answer them in either order).
      const modern = lent && probe && refusedForModern(error);
      const late = modern
        ? await probe?.lateAnswerWithin(Math.floor(server.connectTimeoutMs / 4))
        : undefined;
      const verdict = late === undefined ? undefined : verdictOf(late);
      if (lent && verdict?.era === "modern") {
        await lent.connection.keep(true);
        this.verdict = verdict;
        return this.dialModern(server, options, lent, verdict);
      }
      probe?.drop();
      await lent?.connection.keep(false);
      // A failed connect closes its transport; this also covers a failure before it got that
      // far. The process spawned here must not outlive the dial (closing twice is harmless).
      await early?.connection.close();
      throw error;
    }
  }

  private spawn(server: StdioServerConfig, options: DialOptions): EarlyStdio {
    const tail = new StderrTail(options.stderrLines ?? 40);
    this.tail = tail;
    const transport = stdioTransport(server, tail, options);
    const connection = new Connection(transport);
    // The process starts now: the era is asked on it while the SDK loads.
    void connection.open();
    return { transport, connection, tail };
  }

  /**
   * The era of a stdio server: remembered, or asked on this process. A server that ends its
   * process rather than answer `server/discover` (some 2025 servers do) is legacy, on a new one;
   * one pinned to 2026-07-28 that does not speak it is a connect failure that says why.
   */
  private async negotiate(
    server: StdioServerConfig,
    options: DialOptions,
    early: EarlyStdio,
  ): Promise<{ verdict: EraVerdict; probe?: StdioProbe }> {
    if (this.verdict) return { verdict: this.verdict };
    const probe = await probeStdioEra(
      early.connection,
      options,
      clientCapabilities(server, options.handlers),
      // A silent server must leave most of the connect budget to initialize; one pinned to
      // 2026-07-28 has nothing to fall back to, and gets the whole budget to answer.
      server.protocol === MODERN_PROTOCOL
        ? server.connectTimeoutMs
        : Math.min(PROBE_TIMEOUT_MS, Math.floor(server.connectTimeoutMs / 3)),
    );
    const { verdict } = probe;
    if (server.protocol === MODERN_PROTOCOL && verdict.era !== "modern") {
      // A process that ended (or never started) says so, as in the 2025 era; one that is
      // running and does not speak 2026-07-28 is told to fall back.
      const ended =
        verdict.era === "gone"
          ? stdioEndedEarly(
              server,
              await early.transport.spawnFailure(),
              early.transport,
              early.tail,
            )
          : undefined;
      await early.connection.close();
      if (ended) throw ended;
      throw new ToolSourceError<McpServerErrorCode>(
        "connect_failed",
        `Server "${server.name}" is pinned to protocol ${MODERN_PROTOCOL} but does not speak it (${verdict.era === "gone" ? "its process ended on server/discover" : verdict.why}). Remove "protocol" to let it fall back to 2025-11-25.\nLast stderr lines of "${server.command}":\n${early.tail.describe(10)}`,
      );
    }
    this.verdict = verdict.era === "gone" ? { era: "legacy", why: "process ended" } : verdict;
    return { verdict, probe };
  }

  /** The era of a Streamable HTTP server: remembered, or asked with one POST. */
  private async negotiateHttp(server: HttpServerConfig, options: DialOptions): Promise<EraVerdict> {
    if (this.verdict) return this.verdict;
    const verdict = await probeHttpEra(
      { url: server.url, headers: withStoredToken(server, options) },
      options,
      clientCapabilities(server, options.handlers),
      Math.min(PROBE_TIMEOUT_MS, Math.floor(server.connectTimeoutMs / 3)),
    );
    if (server.protocol === MODERN_PROTOCOL && verdict.era !== "modern")
      throw new ToolSourceError<McpServerErrorCode>(
        "connect_failed",
        `Server "${server.name}" is pinned to protocol ${MODERN_PROTOCOL} but does not speak it (${verdict.era === "legacy" ? verdict.why : "no answer"}). Remove "protocol" to let it fall back to 2025-11-25.`,
      );
    // Only a modern verdict is kept: a 2025 answer may have been a 401 that a login changes.
    if (verdict.era === "modern") this.verdict = verdict;
    return verdict;
  }

  /**
   * A server that wants a login before it says which era it speaks: the login first (the same in
   * both eras), then the question again with the token. Without a login now (nobody to log in),
   * the 2025 path reports that the server needs one, as before.
   */
  private async dialAfterLogin(server: HttpServerConfig, options: DialOptions, challenge?: string) {
    const { loginFromProbe } = await import("../oauth/probe-login.js");
    const authorized = await loginFromProbe(server, options, challenge);
    if (authorized) {
      const verdict = await probeHttpEra(
        server,
        options,
        clientCapabilities(server, options.handlers),
        Math.min(PROBE_TIMEOUT_MS, Math.floor(server.connectTimeoutMs / 3)),
        authorized,
      );
      if (verdict.era === "modern") {
        this.verdict = verdict;
        return this.dialModern(server, options, undefined, verdict);
      }
    }
    const { connectSession } = await clientModule();
    return connectSession(server, options, undefined, undefined);
  }

  private async dialModern(
    server: McpServerConfig,
    options: DialOptions,
    early: EarlyStdio | undefined,
    verdict: Extract<EraVerdict, { era: "modern" }>,
  ): Promise<McpSession> {
    try {
      const { connectSession } = await clientModule();
      return await connectSession(server, options, early, verdict.discover);
    } catch (error) {
      await early?.connection.close();
      if (error instanceof ToolSourceError && error.code === "needs_auth") throw error;
      const stderr =
        early && server.transport === "stdio"
          ? `\nLast stderr lines of "${server.command}":\n${early.tail.describe(10)}`
          : "";
      throw new ToolSourceError<McpServerErrorCode>(
        "connect_failed",
        `Cannot connect to "${server.name}" over ${MODERN_PROTOCOL}: ${error instanceof Error ? error.message : String(error)}${stderr}`,
        { cause: error },
      );
    }
  }
}

/**
 * The server's headers with the token a login stored for it, so the era probe of a server
 * behind OAuth is answered rather than refused (a server that sends its own Authorization
 * header keeps it).
 */
function withStoredToken(server: HttpServerConfig, options: DialOptions): Record<string, string> {
  const own = Object.keys(server.headers).some((name) => name.toLowerCase() === "authorization");
  if (own) return server.headers;
  const authorization = storedAuthorization(
    options.credentials ?? defaultCredentialStore(),
    server.url,
  );
  return authorization ? { ...server.headers, authorization } : server.headers;
}

/** Whether a failed `initialize` was a refusal that names 2026-07-28 among the versions taken. */
function refusedForModern(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    const { code, data } = cause as { code?: unknown; data?: { supported?: unknown } };
    if (code === UNSUPPORTED_PROTOCOL_VERSION && Array.isArray(data?.supported))
      return data.supported.includes(MODERN_PROTOCOL);
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

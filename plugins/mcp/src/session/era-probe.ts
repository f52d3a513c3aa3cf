import type { DialOptions } from "../mcp-session.js";
import type { Connection, WireAnswer } from "../wire/connection.js";

/** The revision of the stateless era we speak. */
export const MODERN_PROTOCOL = "2026-07-28";

/** The `_meta` keys every 2026-07-28 request carries. */
export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
} as const;

/** What a server is, as its answer to `server/discover` tells. */
export type EraVerdict =
  /** It speaks 2026-07-28: the answer is its DiscoverResult, adopted without another round trip. */
  | { era: "modern"; discover: Record<string, unknown> }
  /** It does not (any error, an answer without our version, no answer in time): `initialize`. */
  | {
      era: "legacy";
      why: string;
      /** Over HTTP: the status that said so, and a 401's challenge (where to log in). */
      status?: number;
      challenge?: string;
    }
  /** The process ended instead of answering: it cannot go on, a new one is needed. */
  | { era: "gone" };

/** The 2026-07-28 error for a protocol version a server does not take (`data.supported`). */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** How long a server that ignores `server/discover` is given before `initialize` is sent. */
export const PROBE_TIMEOUT_MS = 3_000;

/** A stdio server's answer to `server/discover`, and the answer still to come after a verdict. */
export interface StdioProbe {
  verdict: EraVerdict;
  /**
   * The answer, if it comes within `ms` (a slow server's, after `initialize` was tried); the
   * wait is the probe's rule, the connection keeps no timer.
   */
  lateAnswerWithin(ms: number): Promise<WireAnswer | undefined>;
  /** The session is settled: an answer that still comes goes to nobody. */
  drop(): void;
}

/**
 * Ask a stdio server which era it speaks, on its own process (the v2 SDK's automatic
 * negotiation spawns a throwaway sibling first, doubling every start-up), over the connection
 * that will carry the session. The rules are the specification's: a DiscoverResult offering
 * our version is modern; any error, whatever its code, or silence, is legacy, and
 * `initialize` follows on the same process.
 */
export async function probeStdioEra(
  connection: Connection,
  options: Pick<DialOptions, "clientInfo">,
  capabilities: Record<string, unknown>,
  timeoutMs: number,
): Promise<StdioProbe> {
  const dropped = new AbortController();
  // Undefined: the process ended first (or the probe was dropped).
  const answer = connection
    .exchange(discoverRequest(options.clientInfo, capabilities), dropped.signal)
    .catch(() => undefined);
  const first = await within(answer, timeoutMs);
  const probe = {
    lateAnswerWithin: (ms: number) =>
      within(answer, ms).then((late) => (late === "timeout" ? undefined : late)),
    drop: () => dropped.abort(),
  };
  if (first === "timeout")
    return {
      verdict: { era: "legacy", why: `no answer to server/discover in ${timeoutMs} ms` },
      ...probe,
    };
  return { verdict: first ? verdictOf(first) : { era: "gone" }, ...probe };
}

/** The verdict for an answer the connection received. */
export function verdictOf(answer: WireAnswer): EraVerdict {
  return classifyDiscoverAnswer(
    answer.kind === "result" ? { result: answer.result } : { error: answer.error },
  );
}

/** `promise`'s value, or "timeout" after `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The `server/discover` request with the 2026-07-28 `_meta` every request carries. */
export function discoverRequest(
  clientInfo: DialOptions["clientInfo"],
  capabilities: Record<string, unknown>,
) {
  return {
    method: "server/discover",
    params: {
      _meta: {
        [META.protocolVersion]: MODERN_PROTOCOL,
        [META.clientInfo]: clientInfo,
        [META.clientCapabilities]: capabilities,
      },
    },
  };
}

/** The verdict for one answer to `server/discover` (stdio and HTTP alike). */
export function classifyDiscoverAnswer(message: unknown): EraVerdict {
  const answer = message as { result?: unknown; error?: { code?: unknown; message?: unknown } };
  if (answer.error !== undefined)
    return {
      era: "legacy",
      why: `server/discover answered ${String(answer.error.code)} ${String(answer.error.message ?? "")}`.trim(),
    };
  const result = answer.result as
    | { supportedVersions?: unknown; capabilities?: unknown }
    | undefined;
  if (
    result &&
    typeof result === "object" &&
    Array.isArray(result.supportedVersions) &&
    result.supportedVersions.includes(MODERN_PROTOCOL) &&
    result.capabilities &&
    typeof result.capabilities === "object"
  )
    return { era: "modern", discover: result as Record<string, unknown> };
  return { era: "legacy", why: "server/discover answered without offering 2026-07-28" };
}

import type { DialOptions } from "./mcp-session.js";
import type { StdioProcessTransport } from "./stdio-process-transport.js";

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

let probes = 0;

/**
 * Ask a stdio server which era it speaks, on its own process (the v2 SDK's automatic
 * negotiation spawns a throwaway sibling first, doubling every start-up). The rules are the
 * specification's: a DiscoverResult offering our version is modern; any error, whatever its
 * code, or silence, is legacy, and `initialize` follows on the same process.
 */
export async function probeStdioEra(
  transport: StdioProcessTransport,
  options: Pick<DialOptions, "clientInfo">,
  capabilities: Record<string, unknown>,
  timeoutMs: number,
): Promise<EraVerdict> {
  probes += 1;
  const outcome = await transport.exchange(
    discoverRequest(`pseudoclaude-discover-${probes}`, options.clientInfo, capabilities),
    timeoutMs,
  );
  if (outcome.kind === "closed") return { era: "gone" };
  if (outcome.kind === "timeout")
    return { era: "legacy", why: `no answer to server/discover in ${timeoutMs} ms` };
  return classifyDiscoverAnswer(outcome.message);
}

/** The `server/discover` request with the 2026-07-28 `_meta` every request carries. */
export function discoverRequest(
  id: string,
  clientInfo: DialOptions["clientInfo"],
  capabilities: Record<string, unknown>,
) {
  return {
    jsonrpc: "2.0" as const,
    id,
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

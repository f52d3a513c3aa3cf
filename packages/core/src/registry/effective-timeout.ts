/**
 * The one effective timeout of a call. Two timers (a registry one and a source one) would
 * leave it unclear which one ended a call; one value from one precedence, reported in the
 * result's metadata, does not.
 * Precedence, first defined wins:
 *   1. `call`    - the caller's per-call value (`execute(..., { timeoutMs })`, CLI `--timeout-ms`)
 *   2. `tool`    - the tool's own, from its source's configuration (MCP `call_timeout_ms`)
 *   3. `default` - the registry default (`createAgent({ toolTimeoutMs })`, config
 *                  `agent.tool_timeout_ms`, else 120 s)
 * The registry is the only place that sets a timer; the value and its origin are reported in
 * the result metadata as `timeout_ms` and `timeout_source`.
 */
export type TimeoutSource = "call" | "tool" | "default";

export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;

export interface EffectiveTimeout {
  timeoutMs: number;
  source: TimeoutSource;
}

export function resolveEffectiveTimeout(
  callTimeoutMs: number | undefined,
  toolTimeoutMs: number | undefined,
  defaultTimeoutMs: number = DEFAULT_TOOL_TIMEOUT_MS,
): EffectiveTimeout {
  if (isPositive(callTimeoutMs)) return { timeoutMs: callTimeoutMs, source: "call" };
  if (isPositive(toolTimeoutMs)) return { timeoutMs: toolTimeoutMs, source: "tool" };
  return { timeoutMs: defaultTimeoutMs, source: "default" };
}

function isPositive(value: number | undefined): value is number {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}

import type { LoggerTransport, LogMetadata } from "@restatedev/restate-sdk";

const LEVELS = ["trace", "debug", "info", "warn", "error"] as const;

/** `RESTATE_LOGGING` as the SDK reads it (default `info`); an unknown name means `info`. */
function threshold(): number {
  const named = LEVELS.indexOf(
    (process.env.RESTATE_LOGGING ?? "info").toLowerCase() as (typeof LEVELS)[number],
  );
  return named === -1 ? LEVELS.indexOf("info") : named;
}

/**
 * The SDK's log lines, all on stderr. Its default writes `info` to stdout, which is a
 * command's output (`pseudoclaude serve --json` prints its address there). Same prefix, same
 * `RESTATE_LOGGING` level, nothing while a replay repeats what was logged.
 */
export const stderrLogger: LoggerTransport = (
  params: LogMetadata,
  message?: unknown,
  ...rest: unknown[]
) => {
  if (params.replaying) return;
  if (LEVELS.indexOf(params.level as (typeof LEVELS)[number]) < threshold()) return;
  let prefix = `[restate][${new Date().toISOString()}]`;
  if (params.context)
    prefix += `[${params.context.invocationTarget}][${params.context.invocationId}]`;
  console.error(`${prefix} ${params.level.toUpperCase()}:`, message, ...rest);
};

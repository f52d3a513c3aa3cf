import type { ProgramOutcome } from "./program-types.js";
import type { Ending } from "./worker-protocol.js";

/** What the run counted on its way, for the outcome's warnings and totals. */
export interface RunTally {
  /** Calls started or waiting that had not answered when the program ended. */
  unfinished: number;
  /** Calls made after the program returned (refused). */
  lateCalls: number;
  logs: string;
  /** The log budget, when output was cut. */
  logsCutAt: number | undefined;
  calls: number;
  durationMs: number;
  /** Warnings noted while cleaning up. */
  warnings: readonly string[];
}

/** The outcome the caller gets, with a warning for each thing the program should know. */
export function programOutcome(ending: Ending, tally: RunTally): ProgramOutcome {
  const warnings: string[] = [];
  if (tally.unfinished > 0)
    warnings.push(
      ending.ok
        ? `${tally.unfinished} tool call(s) had not finished when the program returned (missing await?); they were cancelled and their answers discarded.`
        : `${tally.unfinished} unfinished tool call(s) were cancelled.`,
    );
  if (tally.lateCalls > 0)
    warnings.push(`${tally.lateCalls} tool call(s) made after the program returned were refused.`);
  if (tally.logsCutAt !== undefined)
    warnings.push(`Console output was cut at ${tally.logsCutAt} bytes.`);
  warnings.push(...tally.warnings);
  const common = { logs: tally.logs, warnings, calls: tally.calls, durationMs: tally.durationMs };
  if (ending.ok) return { ok: true, value: JSON.parse(ending.json), ...common };
  const { ok: _ok, ...failure } = ending;
  return { ok: false, ...failure, ...common };
}

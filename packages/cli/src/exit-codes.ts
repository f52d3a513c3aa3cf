import { PseudoClaudeError } from "@pseudoclaude/core";

/** Process exit codes of every command; external checks rely on them. */
export const EXIT = {
  ok: 0,
  /** The tool or the run failed (denied, unknown tool, tool error, provider error ...). */
  failed: 1,
  /** Bad command line or configuration: nothing was attempted. */
  usage: 2,
  /** Interrupted with Ctrl-C (128 + SIGINT), the shell convention. */
  interrupted: 130,
} as const;

/**
 * Exit code for an error that escaped a command. Faults the person can fix by changing the
 * command line or the configuration are usage errors; everything else is a failure.
 */
export function exitCodeFor(error: unknown): number {
  if (PseudoClaudeError.is(error)) {
    if (error.fault === "usage" || error.fault === "config" || error.fault === "plugin") {
      return EXIT.usage;
    }
  }
  return EXIT.failed;
}

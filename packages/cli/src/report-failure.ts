import { PseudoClaudeError } from "@pseudoclaude/core";
import { type CliIo, writeJson, writeLine } from "./cli-io.js";
import { exitCodeFor } from "./exit-codes.js";
import { errorToJson } from "./json-output.js";

/**
 * Report an error that stopped a command: the message on stderr, and with `--json` an
 * `{"error": {code, message}}` document on stdout, so stdout is always one JSON value.
 * Returns the exit code.
 */
export function reportFailure(io: CliIo, json: boolean, error: unknown): number {
  const failure = errorToJson(error);
  writeLine(io.stderr, `pseudoclaude: ${failure.message}`);
  // Our own errors carry a clear message; anything else is a bug, so show where it happened.
  if (!PseudoClaudeError.is(error) && error instanceof Error && error.stack) {
    writeLine(io.stderr, error.stack);
  }
  if (json) writeJson(io.stdout, { error: failure });
  return exitCodeFor(error);
}

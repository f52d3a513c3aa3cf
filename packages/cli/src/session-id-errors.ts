import { isSessionId } from "@pseudoclaude/core";
import { CliUsageError } from "./cli-errors.js";
import { type CliIo, writeJson, writeLine } from "./cli-io.js";
import { EXIT } from "./exit-codes.js";
import { errorToJson } from "./json-output.js";

/**
 * Every command that takes a session id says the same two things the same way, so a script
 * branches on one code whichever command it ran: an id that cannot be a session's (letters,
 * digits, `_` and `-`, at most 128) is `invalid_session_id`, a valid id nobody holds is
 * `session_not_found`. The id is checked before anything reads or sends it.
 */
export function requireSessionId(id: string, details: Record<string, unknown>): string {
  if (!isSessionId(id))
    throw new CliUsageError(
      "invalid_session_id",
      `"${id}" is not a session id (letters, digits, "_" and "-", at most 128).`,
      { details: { ...details, value: id } },
    );
  return id;
}

/** The error for a valid session id the store (or the Restate server) does not hold. */
export function sessionNotFound(message: string, details: Record<string, unknown> = {}) {
  return new CliUsageError("session_not_found", message, { details });
}

/**
 * For commands whose missing session is a failed result (exit 1), not a usage error: the
 * message on `text` (stderr unless told), and with `--json` the same `error` object a usage
 * error prints, next to what the command prints anyway (`extra`).
 */
export function reportSessionNotFound(
  io: CliIo,
  json: boolean,
  error: CliUsageError,
  options: { text?: "stdout" | "stderr"; extra?: Record<string, unknown> } = {},
): number {
  if (json) writeJson(io.stdout, { ...options.extra, error: errorToJson(error) });
  else writeLine(options.text === "stdout" ? io.stdout : io.stderr, error.message);
  return EXIT.failed;
}

import { errorMessage, ModelError, PseudoClaudeError } from "../errors.js";

/**
 * What every HTTP model provider shares when turning API failures into ModelErrors: stable
 * codes for statuses (callers branch on `code`, never on message text), messages that show the
 * cause, and keys kept out of errors even when a server echoes them.
 */
const STATUS_CODES: Record<number, string> = {
  400: "bad_request",
  401: "authentication_failed",
  403: "permission_denied",
  404: "not_found",
  413: "request_too_large",
  422: "bad_request",
  429: "rate_limited",
  529: "overloaded",
};

/** The ModelError code for an HTTP status (`server_error` for other 5xx, else `api_error`). */
export function modelErrorCode(status: number | undefined): string {
  if (status === undefined) return "api_error";
  return STATUS_CODES[status] ?? (status >= 500 ? "server_error" : "api_error");
}

/** An error's message with its cause's, e.g. `fetch failed (connect ECONNREFUSED ...)`. */
export function describeCause(error: unknown): string {
  const message = errorMessage(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause === undefined ? message : `${message} (${errorMessage(cause)})`;
}

/**
 * `made` with the key taken out. Some servers echo the key they refused: it is cut from the
 * message, and the cause (which may carry it) is left off. Framework errors pass as they are.
 */
export function withoutSecret(original: unknown, made: Error, secret: string | undefined): Error {
  if (PseudoClaudeError.is(original)) return original;
  if (!(made instanceof ModelError)) return made;
  if (!secret || (!made.message.includes(secret) && !errorMessage(original).includes(secret)))
    return made;
  return new ModelError(made.code, made.message.split(secret).join("[redacted]"), {
    details: { ...made.details },
  });
}

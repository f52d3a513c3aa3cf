import { APIConnectionError, APIConnectionTimeoutError, APIError } from "@anthropic-ai/sdk";
import { errorMessage, ModelError, PseudoClaudeError } from "@pseudoclaude/core";

/** Stable codes for HTTP statuses, so callers branch on `code`, not on message text. */
const STATUS_CODES: Record<number, string> = {
  400: "bad_request",
  401: "authentication_failed",
  403: "permission_denied",
  404: "not_found",
  413: "request_too_large",
  429: "rate_limited",
  529: "overloaded",
};

/**
 * A ModelError for whatever the SDK threw (after its own retries). Details carry the status,
 * the API's error type and the request id; the key never appears (the SDK does not echo it).
 */
export function toModelError(
  error: unknown,
  context: { model: string; baseURL: string; apiKey?: string },
): Error {
  if (PseudoClaudeError.is(error)) return error;
  const made = classify(error, context);
  // Some servers echo the key they refused: keep it out of the message, and leave out a
  // cause that carries it.
  const secret = context.apiKey;
  if (!secret || (!made.message.includes(secret) && !errorMessage(error).includes(secret)))
    return made;
  return new ModelError(made.code, made.message.split(secret).join("[redacted]"), {
    details: { ...made.details },
  });
}

function classify(error: unknown, context: { model: string; baseURL: string }): ModelError {
  const details: Record<string, unknown> = { provider: "anthropic", model: context.model };
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError("timeout", `The Anthropic API at ${context.baseURL} timed out.`, {
      cause: error,
      details,
    });
  }
  if (error instanceof APIConnectionError) {
    return new ModelError(
      "connection_failed",
      `Cannot reach the Anthropic API at ${context.baseURL}: ${causeMessage(error)}`,
      { cause: error, details: { ...details, base_url: context.baseURL } },
    );
  }
  if (error instanceof APIError) {
    if (error.status !== undefined) details.status = error.status;
    if (error.type) details.error_type = error.type;
    if (error.requestID) details.request_id = error.requestID;
    const code =
      error.status === undefined
        ? error.type === "overloaded_error"
          ? "overloaded"
          : "api_error"
        : (STATUS_CODES[error.status] ?? (error.status >= 500 ? "server_error" : "api_error"));
    const status = error.status === undefined ? "in the stream" : `${error.status}`;
    const reason = error.apiMessage ?? error.message;
    return new ModelError(
      code,
      `Anthropic API error ${status}${error.type ? ` (${error.type})` : ""}: ${reason}`,
      { cause: error, details },
    );
  }
  // Anything else came from reading the body: the connection broke mid-answer.
  return new ModelError(
    "stream_interrupted",
    `The Anthropic stream broke off: ${causeMessage(error)}`,
    { cause: error, details },
  );
}

function causeMessage(error: unknown): string {
  const message = errorMessage(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause === undefined ? message : `${message} (${errorMessage(cause)})`;
}

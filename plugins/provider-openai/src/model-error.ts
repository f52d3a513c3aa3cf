import { errorMessage, ModelError, PseudoClaudeError } from "@pseudoclaude/core";
import { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";

/** Stable codes for HTTP statuses, so callers branch on `code`, not on message text. */
const STATUS_CODES: Record<number, string> = {
  400: "bad_request",
  401: "authentication_failed",
  403: "permission_denied",
  404: "not_found",
  413: "request_too_large",
  422: "bad_request",
  429: "rate_limited",
};

/**
 * A ModelError for whatever the SDK threw (after its own retries). Details carry the status,
 * the API's error type and code and the request id; the key never appears (the SDK does not
 * echo it).
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
  const details: Record<string, unknown> = { provider: "openai", model: context.model };
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError("timeout", `The OpenAI API at ${context.baseURL} timed out.`, {
      cause: error,
      details,
    });
  }
  if (error instanceof APIConnectionError) {
    return new ModelError(
      "connection_failed",
      `Cannot reach the OpenAI API at ${context.baseURL}: ${causeMessage(error)}`,
      { cause: error, details: { ...details, base_url: context.baseURL } },
    );
  }
  if (error instanceof APIError) {
    if (error.status !== undefined) details.status = error.status;
    if (error.type) details.error_type = error.type;
    if (error.code) details.error_code = error.code;
    if (error.requestID) details.request_id = error.requestID;
    const code =
      error.status === undefined
        ? "api_error"
        : (STATUS_CODES[error.status] ?? (error.status >= 500 ? "server_error" : "api_error"));
    const status = error.status === undefined ? "in the stream" : `${error.status}`;
    const label = error.type ?? error.code;
    return new ModelError(
      code,
      `OpenAI API error ${status}${label ? ` (${label})` : ""}: ${apiMessage(error)}`,
      { cause: error, details },
    );
  }
  // Anything else came from reading the body: the connection broke mid-answer.
  return new ModelError(
    "stream_interrupted",
    `The OpenAI stream broke off: ${causeMessage(error)}`,
    {
      cause: error,
      details,
    },
  );
}

function apiMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  return typeof body?.message === "string" ? body.message : error.message;
}

function causeMessage(error: unknown): string {
  const message = errorMessage(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause === undefined ? message : `${message} (${errorMessage(cause)})`;
}

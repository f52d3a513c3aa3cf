import { APIConnectionError, APIConnectionTimeoutError, APIError } from "@anthropic-ai/sdk";
import {
  describeCause,
  ModelError,
  modelErrorCode,
  PseudoClaudeError,
  withoutSecret,
} from "@pseudoclaude/core";

/**
 * A ModelError for whatever the SDK threw (after its own retries). Details carry the status,
 * the API's error type and the request id; the key never appears (the SDK does not echo it).
 */
export function toModelError(
  error: unknown,
  context: { model: string; baseURL: string; apiKey?: string },
): Error {
  if (PseudoClaudeError.is(error)) return error;
  return withoutSecret(error, classify(error, context), context.apiKey);
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
      `Cannot reach the Anthropic API at ${context.baseURL}: ${describeCause(error)}`,
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
        : modelErrorCode(error.status);
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
    `The Anthropic stream broke off: ${describeCause(error)}`,
    { cause: error, details },
  );
}

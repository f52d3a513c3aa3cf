import {
  describeCause,
  ModelError,
  modelErrorCode,
  PseudoClaudeError,
  withoutSecret,
} from "@pseudoclaude/core";
import { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";

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
  return withoutSecret(error, classify(error, context), context.apiKey);
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
      `Cannot reach the OpenAI API at ${context.baseURL}: ${describeCause(error)}`,
      { cause: error, details: { ...details, base_url: context.baseURL } },
    );
  }
  if (error instanceof APIError) {
    if (error.status !== undefined) details.status = error.status;
    if (error.type) details.error_type = error.type;
    if (error.code) details.error_code = error.code;
    if (error.requestID) details.request_id = error.requestID;
    const code = modelErrorCode(error.status);
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
    `The OpenAI stream broke off: ${describeCause(error)}`,
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

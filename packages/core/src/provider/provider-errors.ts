import { REDACTED } from "../diagnostics/redactor.js";
import { errorMessage, ModelError, type ModelErrorCode, PseudoClaudeError } from "../errors.js";

/**
 * What every HTTP model provider shares when turning API failures into ModelErrors: stable
 * codes for statuses (callers branch on `code`, never on message text), messages that show the
 * cause, and keys kept out of errors even when a server echoes them.
 */
const STATUS_CODES: Record<number, ModelErrorCode> = {
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
export function modelErrorCode(status: number | undefined): ModelErrorCode {
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
 * `made` with the key taken out. Some servers echo the key they refused: it is replaced in the
 * message by the one redaction marker (`***`), and the cause (which may carry it) is left off. Framework errors pass as they are.
 */
export function withoutSecret(original: unknown, made: Error, secret: string | undefined): Error {
  if (PseudoClaudeError.is(original)) return original;
  if (!(made instanceof ModelError)) return made;
  if (!secret || (!made.message.includes(secret) && !errorMessage(original).includes(secret)))
    return made;
  return new ModelError(made.code, made.message.split(secret).join(REDACTED), {
    details: { ...made.details },
  });
}

/** The error classes a Stainless-generated SDK (Anthropic's, OpenAI's) throws. */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
}

/** What a provider reads off its SDK's API error. */
export interface ApiErrorFacts {
  status?: number;
  /** The API's error type (`rate_limit_error`, `invalid_request_error`). */
  type?: string;
  /** The API's error code, where it has one. */
  errorCode?: string;
  requestId?: string;
  message: string;
  /** A code to use instead of the one the status gives (e.g. `overloaded` in a stream). */
  code?: ModelErrorCode;
}

export interface SdkErrorContext {
  /** Provider id for details, e.g. `anthropic`. */
  provider: string;
  /** Name for messages, e.g. `Anthropic`. */
  label: string;
  model: string;
  baseURL: string;
  apiKey?: string;
  classes: SdkErrorClasses;
  facts(error: Error): ApiErrorFacts;
}

/**
 * A ModelError for whatever an official SDK finally threw (after its own retries): timeouts,
 * unreachable servers, API errors with their status, type and request id, and streams that
 * broke off. The key never appears, even when a server echoes it.
 */
export function sdkModelError(error: unknown, context: SdkErrorContext): Error {
  if (PseudoClaudeError.is(error)) return error;
  return withoutSecret(error, classifySdkError(error, context), context.apiKey);
}

function classifySdkError(error: unknown, context: SdkErrorContext): ModelError {
  const { classes, label, baseURL } = context;
  const details: Record<string, unknown> = { provider: context.provider, model: context.model };
  if (error instanceof classes.APIConnectionTimeoutError) {
    return new ModelError("timeout", `The ${label} API at ${baseURL} timed out.`, {
      cause: error,
      details,
    });
  }
  if (error instanceof classes.APIConnectionError) {
    return new ModelError(
      "connection_failed",
      `Cannot reach the ${label} API at ${baseURL}: ${describeCause(error)}`,
      {
        cause: error,
        details: { ...details, base_url: baseURL },
      },
    );
  }
  if (error instanceof classes.APIError) {
    const facts = context.facts(error);
    if (facts.status !== undefined) details.status = facts.status;
    if (facts.type) details.error_type = facts.type;
    if (facts.errorCode) details.error_code = facts.errorCode;
    if (facts.requestId) details.request_id = facts.requestId;
    const where = facts.status === undefined ? "in the stream" : `${facts.status}`;
    const kind = facts.type ?? facts.errorCode;
    return new ModelError(
      facts.code ?? modelErrorCode(facts.status),
      `${label} API error ${where}${kind ? ` (${kind})` : ""}: ${facts.message}`,
      { cause: error, details },
    );
  }
  // Anything else came from reading the body: the connection broke mid-answer.
  return new ModelError(
    "stream_interrupted",
    `The ${label} stream broke off: ${describeCause(error)}`,
    {
      cause: error,
      details,
    },
  );
}

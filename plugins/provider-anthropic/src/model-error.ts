import { APIConnectionError, APIConnectionTimeoutError, APIError } from "@anthropic-ai/sdk";
import { sdkModelError } from "@pseudoclaude/core/provider";

/**
 * A ModelError for whatever the SDK threw (after its own retries). Details carry the status,
 * the API's error type and the request id; the key never appears.
 */
export function toModelError(
  error: unknown,
  context: { model: string; baseURL: string; apiKey?: string },
): Error {
  return sdkModelError(error, {
    ...context,
    provider: "anthropic",
    label: "Anthropic",
    classes: { APIError, APIConnectionError, APIConnectionTimeoutError },
    facts: (raw) => {
      const apiError = raw as APIError;
      return {
        ...(apiError.status !== undefined ? { status: apiError.status } : {}),
        ...(apiError.type ? { type: apiError.type } : {}),
        ...(apiError.requestID ? { requestId: apiError.requestID } : {}),
        message: apiError.apiMessage ?? apiError.message,
        // An overload reported inside a running stream has no HTTP status of its own.
        ...(apiError.status === undefined && apiError.type === "overloaded_error"
          ? { code: "overloaded" }
          : {}),
      };
    },
  });
}

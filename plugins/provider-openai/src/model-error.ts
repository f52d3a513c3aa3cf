import { sdkModelError } from "@pseudoclaude/core/provider";
import { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";

/**
 * A ModelError for whatever the SDK threw (after its own retries). Details carry the status,
 * the API's error type and code and the request id; the key never appears.
 */
export function toModelError(
  error: unknown,
  context: { model: string; baseURL: string; apiKey?: string },
): Error {
  return sdkModelError(error, {
    ...context,
    provider: "openai",
    label: "OpenAI",
    classes: { APIError, APIConnectionError, APIConnectionTimeoutError },
    facts: (raw) => {
      const apiError = raw as APIError;
      const body = apiError.error as { message?: unknown } | undefined;
      return {
        ...(apiError.status !== undefined ? { status: apiError.status } : {}),
        ...(apiError.type ? { type: apiError.type } : {}),
        ...(apiError.code ? { errorCode: apiError.code } : {}),
        ...(apiError.requestID ? { requestId: apiError.requestID } : {}),
        message: typeof body?.message === "string" ? body.message : apiError.message,
      };
    },
  });
}

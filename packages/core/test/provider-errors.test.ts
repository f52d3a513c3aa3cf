import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { REDACTED } from "../src/diagnostics/redactor.js";
import { ConfigError, ModelError } from "../src/errors.js";
import { modelErrorCode, withoutSecret } from "../src/provider/provider-errors.js";

describe("provider error helpers", () => {
  it("gives stable codes for HTTP statuses", () => {
    assert.deepEqual(
      [400, 401, 403, 404, 413, 422, 429, 529, 500, 503, 418, undefined].map(modelErrorCode),
      [
        "bad_request",
        "authentication_failed",
        "permission_denied",
        "not_found",
        "request_too_large",
        "bad_request",
        "rate_limited",
        "overloaded",
        "server_error",
        "server_error",
        "api_error",
        "api_error",
      ],
    );
  });

  it("cuts an echoed key from the message and drops the cause that carries it", () => {
    const original = new Error("401: invalid key sk-live-123456");
    const made = new ModelError(
      "authentication_failed",
      "API error 401: invalid key sk-live-123456",
      {
        cause: original,
        details: { status: 401 },
      },
    );
    const safe = withoutSecret(original, made, "sk-live-123456") as ModelError;
    assert.equal(safe.message, `API error 401: invalid key ${REDACTED}`);
    assert.equal(REDACTED, "***", "the one redaction marker");
    assert.equal(safe.cause, undefined);
    assert.deepEqual(safe.details, { status: 401 });
    assert.equal(withoutSecret(new Error("no key here"), made, "other"), made);
    const config = new ConfigError("missing_api_key", "set ANTHROPIC_API_KEY");
    assert.equal(withoutSecret(config, made, "x"), config, "framework errors pass unchanged");
  });
});

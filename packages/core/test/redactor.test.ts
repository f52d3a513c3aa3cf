import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DefaultDiagnosticsSink } from "../src/diagnostics/diagnostics-sink.js";
import { DefaultRedactor } from "../src/diagnostics/redactor.js";

describe("secrets in diagnostics", () => {
  it("redacts registered secrets and credential-shaped text from messages and details", () => {
    const sink = new DefaultDiagnosticsSink();
    sink.redactor.addSecret("Bearer s3cr3t-token-value");
    sink.add({
      stage: "connect",
      severity: "error",
      message:
        "401 for header Authorization: Bearer s3cr3t-token-value (token s3cr3t-token-value) key sk-abcdefghijklmnop",
      details: {
        headers: { Authorization: "Bearer s3cr3t-token-value" },
        api_key: "plainvalue123",
      },
    });
    const [diagnostic] = sink.list();
    assert.doesNotMatch(
      JSON.stringify(diagnostic),
      /s3cr3t-token-value|abcdefghijklmnop|plainvalue123/,
    );
    assert.match(diagnostic!.message, /\*\*\*/);
  });

  it("hides a secret added after results were redacted, and one inside another whole", () => {
    const redactor = new DefaultRedactor();
    redactor.addSecret("token-one");
    assert.equal(redactor.redactKnown("a token-one b"), "a *** b");
    redactor.addSecret("token-one"); // again, as every credential read registers it
    redactor.addSecret("xx-token-one-yy");
    assert.equal(redactor.redactKnown("xx-token-one-yy and token-one"), "*** and ***");
    assert.equal(redactor.knownCount, 2);
  });
});

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DefaultDiagnosticsSink } from "../src/diagnostics/diagnostics-sink.js";

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
});

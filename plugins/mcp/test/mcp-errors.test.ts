import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PseudoClaudeError } from "@pseudoclaude/core";
import { McpCallError } from "../src/index.js";
import { JsonLineReader } from "../src/wire/json-line-reader.js";

describe("MCP errors", () => {
  it("makes a call error a kernel error of the tool's fault whose code follows its reason", () => {
    const error = new McpCallError("session", "gone", { retryable: true });
    assert.ok(PseudoClaudeError.is(error));
    assert.equal(error.fault, "tool");
    assert.equal(error.code, "call_session_unavailable");
    assert.equal(error.reason, "session");
    assert.equal(error.retryable, true);
    assert.equal(error.name, "McpCallError");
    assert.equal(error.message, "gone");
  });

  it("reports what a stdio server wrote wrongly as the tool's fault, with a code", () => {
    const [item] = new JsonLineReader().push(Buffer.from("debug output\n"));
    assert.ok(item && "error" in item);
    assert.ok(PseudoClaudeError.is(item.error));
    assert.equal(item.error.fault, "tool");
    assert.equal(item.error.code, "not_json");
  });
});

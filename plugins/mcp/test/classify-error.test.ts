import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { McpCallError } from "../src/index.js";
import { classifyError } from "../src/session/classify-error.js";

describe("classifying SDK failures", () => {
  it("maps each SDK failure to the reason reported in metadata", () => {
    const reasons = [
      new McpError(ErrorCode.ConnectionClosed, "Connection closed"),
      new McpError(ErrorCode.RequestTimeout, "aborted"),
      new McpError(ErrorCode.InvalidParams, "bad params"),
      new Error("Not connected"),
      Object.assign(new Error("This operation was aborted"), { name: "AbortError" }),
      new TypeError("fetch failed"),
    ].map((error) => classifyError(error).reason);
    assert.deepEqual(reasons, [
      "session",
      "cancelled",
      "protocol",
      "session",
      "cancelled",
      "transport",
    ]);
  });

  it("keeps an McpCallError as it is", () => {
    const original = new McpCallError("timeout", "late");
    assert.equal(classifyError(original), original);
  });
});

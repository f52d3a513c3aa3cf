import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
} from "@modelcontextprotocol/client";
import { McpCallError } from "../src/index.js";
import { classifyError } from "../src/session/recover-failure.js";

describe("classifying the client's failures", () => {
  it("maps each failure to the reason reported in metadata", () => {
    const reasons = [
      new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed"),
      new SdkError(SdkErrorCode.NotConnected, "Not connected"),
      new SdkError(SdkErrorCode.RequestTimeout, "Request timed out"),
      new SdkError(SdkErrorCode.InvalidResult, "bad result"),
      new ProtocolError(ProtocolErrorCode.InvalidParams, "bad params"),
      new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "HTTP 502", { status: 502 }),
      new Error("Not connected"),
      Object.assign(new Error("This operation was aborted"), { name: "AbortError" }),
      new TypeError("fetch failed"),
    ].map((error) => classifyError(error).reason);
    assert.deepEqual(reasons, [
      "session",
      "session",
      "cancelled",
      "protocol",
      "protocol",
      "transport",
      "session",
      "cancelled",
      "transport",
    ]);
  });

  it("calls any failure after the caller's abort a cancellation", () => {
    const controller = new AbortController();
    controller.abort();
    const failure = new ProtocolError(ProtocolErrorCode.InternalError, "gone");
    assert.equal(classifyError(failure, controller.signal).reason, "cancelled");
    assert.equal(classifyError(failure).reason, "protocol");
  });

  it("keeps an McpCallError as it is", () => {
    const original = new McpCallError("timeout", "late");
    assert.equal(classifyError(original), original);
  });
});

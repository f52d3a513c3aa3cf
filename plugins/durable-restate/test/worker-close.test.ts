// A worker that is told to stop, stops: the server it serves may hold a stream open as long as
// it likes (an invocation it has not ended), and a graceful close alone would wait for it, so
// a SIGTERM'd `pseudoclaude serve --durable` hung until the server let go.
import assert from "node:assert/strict";
import http2 from "node:http2";
import { describe, it } from "node:test";
import { DEFAULT_OBJECT_NAME, serveDurableAgent } from "../src/index.js";

describe("a durable worker's close", () => {
  it("cuts a stream the server keeps open, after a grace period", async () => {
    const worker = await serveDurableAgent({
      port: 0,
      createAgent: async () => {
        throw new Error("no run reaches an agent here");
      },
      logger: () => {},
    });
    const client = http2.connect(worker.url);
    try {
      // A run's invocation stream, opened and never ended, as the server's can be.
      const stream = client.request({
        ":method": "POST",
        ":path": `/invoke/${DEFAULT_OBJECT_NAME}/run`,
        "content-type": "application/vnd.restate.invocation.v5",
      });
      const status = await new Promise<unknown>((resolve) =>
        stream.once("response", (headers) => resolve(headers[":status"])),
      );
      assert.equal(status, 200, "the worker took the stream");
      const streamClosed = new Promise<number>((resolve) =>
        stream.once("close", () => resolve(stream.rstCode)),
      );
      const started = Date.now();
      const outcome = await Promise.race([
        worker.close().then(() => "closed"),
        new Promise<string>((resolve) => setTimeout(() => resolve("still open"), 10_000).unref()),
      ]);
      assert.equal(outcome, "closed", "close returned while the stream was held open");
      assert.ok(Date.now() - started >= 1_500, "the server was given its grace period first");
      assert.equal(await streamClosed, http2.constants.NGHTTP2_CANCEL);
    } finally {
      client.destroy();
    }
  });
});

// A connection opened before its client (the dialer asks the era first, on the process that
// will serve the session): what the server says meanwhile, and its exit, wait for the client;
// a client on trial hands the connection back. Real processes over our stdio transport.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { Connection } from "../src/wire/connection.js";
import { StderrTail, StdioProcessTransport } from "../src/wire/stdio-transport.js";

/** A process that speaks before anyone asks, then stays or leaves (real processes, no MCP). */
function transport(script: string): StdioProcessTransport {
  return new StdioProcessTransport({
    command: process.execPath,
    args: ["-e", script],
    env: { PATH: process.env.PATH ?? "" },
    stderrTail: new StderrTail(10),
    closeGraceMs: { afterStdin: 200, afterTerm: 500 },
  });
}

const SAYS_TWO = `
process.stdout.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/a" }) + "\\n");
process.stdout.write("not json\\n");
process.stdout.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/b" }) + "\\n");
`;

describe("a connection opened before its client", () => {
  it("hands what the server said before the client started to the client", async () => {
    const process_ = transport(`${SAYS_TWO} setInterval(() => {}, 1000);`);
    const early = new Connection(process_);
    void early.open();
    // The server speaks while the "SDK" is still loading.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const seen: string[] = [];
    const errors: string[] = [];
    early.onmessage = (message: JSONRPCMessage) =>
      seen.push((message as { method: string }).method);
    early.onerror = (error) => errors.push(error.message);
    try {
      await early.start();
      await new Promise((resolve) => setTimeout(resolve, 20));
      // Messages in order (errors are reported at once, as for a started client).
      assert.deepEqual(seen, ["notifications/a", "notifications/b"]);
      assert.equal(errors.length, 1);
      assert.match(errors[0]!, /Not JSON on the server's stdout: not json/);
      assert.ok(process_.pid, "one process, started once");
      assert.throws(() => process_.start(), /already started/);
    } finally {
      await early.close();
    }
  });

  it("tells the client a server that exited before it started is gone, with the exit code", async () => {
    const process_ = transport(`${SAYS_TWO} process.exit(3);`);
    const early = new Connection(process_);
    void early.open();
    await new Promise((resolve) => setTimeout(resolve, 400));
    let closed = false;
    early.onclose = () => {
      closed = true;
    };
    try {
      await early.start();
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(closed, true);
      assert.deepEqual(process_.exitInfo, { code: 3, signal: null });
      await assert.rejects(
        early.send({ jsonrpc: "2.0", id: 1, method: "ping" }),
        /server process is not running/,
      );
    } finally {
      await early.close();
    }
  });

  it("reports a command that cannot start when the client starts, not as a stray rejection", async () => {
    const missing = new Connection(
      new StdioProcessTransport({
        command: "/nonexistent/pseudoclaude-test-server",
        args: [],
        env: {},
        stderrTail: new StderrTail(10),
      }),
    );
    const stray: unknown[] = [];
    const onStray = (reason: unknown) => stray.push(reason);
    process.on("unhandledRejection", onStray);
    try {
      void missing.open();
      await new Promise((resolve) => setTimeout(resolve, 100));
      await assert.rejects(missing.start(), { code: "ENOENT" });
      assert.deepEqual(stray, []);
    } finally {
      process.off("unhandledRejection", onStray);
      await missing.close();
    }
  });

  it("on trial, is handed back by its client's close, the process running, until kept or not", async () => {
    const process_ = transport("setInterval(() => {}, 1000);");
    const early = new Connection(process_);
    await early.open();
    early.lend();
    let firstHeard = 0;
    early.onmessage = () => {
      firstHeard += 1;
    };
    await early.start();
    await early.close();
    assert.equal(early.onmessage, undefined, "the failed client's handlers are gone");
    assert.equal(process_.exitInfo, undefined, "the process runs on");
    const answered = early.request("ping", {}, { signal: new AbortController().signal });
    const failed = assert.rejects(answered, /Connection closed/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await early.keep(false);
    await failed;
    assert.ok(process_.exitInfo, "kept(false): the process was ended");
    assert.equal(firstHeard, 0);
  });
});

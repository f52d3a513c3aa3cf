import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { leanFetch } from "../src/wire/lean-fetch.js";

/** A full garbage collection, also when the test runner was not started with --expose-gc. */
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/** A real HTTP server: echoes POST bodies, redirects /old, stalls on /stall and /trickle. */
let server: http.Server;
let base: string;
const seen: string[] = [];
const open = new Set<http.ServerResponse>();

before(async () => {
  server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (req.url === "/old") {
      res.writeHead(307, { location: "/new" });
      res.end();
      return;
    }
    if (req.url === "/stall") {
      open.add(res); // never answers
      return;
    }
    if (req.url === "/trickle") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: first\n\n");
      open.add(res); // the stream never ends
      return;
    }
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => res.end(`${req.url} got ${body}`));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  for (const res of open) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("leanFetch (the fetch given to the SDK's HTTP transports)", () => {
  it("keeps one abort listener on the transport's signal however many requests use it", async () => {
    const transport = new AbortController();
    const fetch = leanFetch(globalThis.fetch);
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      for (let batch = 0; batch < 20; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 100 }, async (_, i) => {
            const response = await fetch(`${base}/echo`, {
              method: "POST",
              body: `${batch}-${i}`,
              signal: transport.signal,
            });
            return response.text();
          }),
        );
        assert.equal(answers[99], `/echo got ${batch}-99`);
      }
      // Without it undici leaves one per request until the Request is collected (2,000 here).
      assert.equal(getEventListeners(transport.signal, "abort").length, 1);
      assert.deepEqual(warnings, []);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("aborting the transport's signal ends a request still waiting for headers, with its reason", async () => {
    const transport = new AbortController();
    const pending = leanFetch(globalThis.fetch)(`${base}/stall`, {
      method: "POST",
      body: "{}",
      signal: transport.signal,
    });
    await waitFor(() => seen.includes("POST /stall"));
    transport.abort(new Error("transport closed"));
    await assert.rejects(pending, /transport closed/);
  });

  it("aborting the transport's signal ends a response body still streaming", async () => {
    const transport = new AbortController();
    const response = await leanFetch(globalThis.fetch)(`${base}/trickle`, {
      method: "POST",
      body: "{}",
      signal: transport.signal,
    });
    const reader = response.body!.getReader();
    const first = await reader.read();
    assert.match(new TextDecoder().decode(first.value), /first/);
    // Collected garbage must not take the live request's controller, or undici's, with it.
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 20));
    collectGarbage();
    const next = reader.read();
    transport.abort(new Error("transport closed"));
    await assert.rejects(next, /transport closed/);
  });

  it("follows a redirect as fetch does", async () => {
    seen.length = 0;
    const response = await leanFetch(globalThis.fetch)(`${base}/old`, {
      method: "POST",
      body: "one",
      signal: new AbortController().signal,
    });
    assert.equal(await response.text(), "/new got one");
    assert.deepEqual(seen, ["POST /old", "POST /new"]);
  });

  it("rejects at once, as fetch does, when the signal is already aborted", async () => {
    const transport = new AbortController();
    transport.abort(new Error("closed before"));
    await assert.rejects(
      leanFetch(globalThis.fetch)(`${base}/echo`, { method: "POST", signal: transport.signal }),
      /closed before/,
    );
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(condition(), "condition not met within 2 s");
}

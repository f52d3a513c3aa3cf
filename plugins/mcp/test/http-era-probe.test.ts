// The era question over Streamable HTTP against a real node:http server that answers it the
// ways a server may: JSON, or an SSE stream that says other things first, splits its events
// across writes and stays open after the answer; and a body too large to read whole.
import assert from "node:assert/strict";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { probeHttpEra } from "../src/session/http-era-probe.js";

const DISCOVER = { supportedVersions: ["2026-07-28"], capabilities: { tools: {} } };

/** How the server answers: by the path it is asked on. */
const answers: Record<string, (id: unknown, response: ServerResponse) => void> = {
  "/json": (id, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ jsonrpc: "2.0", id, result: DISCOVER }));
  },
  "/sse": (id, response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write(
      `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: {} })}\n\n`,
    );
    const answer = `data: ${JSON.stringify({ jsonrpc: "2.0", id, result: DISCOVER })}\r\n\r\n`;
    response.write(answer.slice(0, 20));
    setTimeout(() => response.write(answer.slice(20)), 20);
    // The stream stays open: the probe must not wait for its end.
  },
  "/huge": (_id, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(`{"pad":"${"x".repeat(1_100_000)}"}`);
  },
};

describe("the era question over Streamable HTTP", () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on("end", () => {
        const { id, method } = JSON.parse(body) as { id: unknown; method: string };
        assert.equal(method, "server/discover");
        answers[request.url ?? ""]?.(id, response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const ask = (path: string) =>
    probeHttpEra(
      { url: `${base}${path}`, headers: {} },
      { clientInfo: { name: "probe-test", version: "1" }, signal: new AbortController().signal },
      {},
      5_000,
    );

  it("takes a JSON DiscoverResult", async () => {
    assert.deepEqual(await ask("/json"), { era: "modern", discover: DISCOVER });
  });

  it("takes the event that answers it from an SSE stream that stays open", async () => {
    const started = Date.now();
    assert.deepEqual(await ask("/sse"), { era: "modern", discover: DISCOVER });
    assert.ok(Date.now() - started < 4_000, "answered before the probe's timeout");
  });

  it("does not read a body past its bound", async () => {
    const verdict = await ask("/huge");
    assert.equal(verdict.era, "legacy");
    assert.match((verdict as { why: string }).why, /too large/);
  });
});

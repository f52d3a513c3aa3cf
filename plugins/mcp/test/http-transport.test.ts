// Our Streamable HTTP transport in 2026-07-28, against a real HTTP server: the standard
// headers it derives from the message, a 400 that carries the request's JSON-RPC error taken
// as the answer (as the v2 transport takes it), and any other 400 a refusal.
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { ERA_2026 } from "../src/wire/era-2026.js";
import { HttpTransport } from "../src/wire/http-transport.js";

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

describe("the Streamable HTTP transport in 2026-07-28", () => {
  const seen: http.IncomingHttpHeaders[] = [];
  let server: http.Server;
  let url: string;
  before(async () => {
    server = http.createServer((request, response) => {
      seen.push(request.headers);
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        const { id, params } = JSON.parse(body) as { id: string; params: { name: string } };
        const refusal = { code: -32602, message: `refused ${params.name}` };
        response.writeHead(params.name === "ok" ? 200 : 400, {
          "content-type": "application/json",
        });
        if (params.name === "ok")
          response.end(JSON.stringify({ jsonrpc: "2.0", id, result: { content: [] } }));
        else if (params.name === "refused with its id")
          response.end(JSON.stringify({ jsonrpc: "2.0", id, error: refusal }));
        else response.end(JSON.stringify({ jsonrpc: "2.0", error: refusal }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function lane() {
    const made = new HttpTransport({
      url: new URL(url),
      headers: { "x-team": "a" },
      era: ERA_2026.http,
    });
    const answers: unknown[] = [];
    made.onmessage = (message) => answers.push(message);
    return { lane: made, answers };
  }

  const call = (id: string, name: string) => ({
    jsonrpc: "2.0" as const,
    id,
    method: "tools/call",
    params: { name, arguments: {}, _meta: ENVELOPE },
  });

  it("sends the standard headers the message implies, and the configured ones", async () => {
    const { lane: made, answers } = lane();
    await made.send(call("pc-1", "ok"));
    assert.deepEqual(answers, [{ jsonrpc: "2.0", id: "pc-1", result: { content: [] } }]);
    const headers = seen.at(-1)!;
    assert.equal(headers["mcp-protocol-version"], "2026-07-28");
    assert.equal(headers["mcp-method"], "tools/call");
    assert.equal(headers["mcp-name"], "ok");
    assert.equal(headers["x-team"], "a");
    await made.close();
  });

  it("encodes a name that is not a plain field value, as the revision says", async () => {
    const { lane: made } = lane();
    await made.send(call("pc-2", "ok")).catch(() => undefined);
    await made.send(call("pc-3", " spaced é")).catch(() => undefined);
    const encoded = Buffer.from(" spaced é", "utf8").toString("base64");
    assert.equal(seen.at(-1)!["mcp-name"], `=?base64?${encoded}?=`);
    await made.close();
  });

  it("takes a 400 that carries the request's error as its answer", async () => {
    const { lane: made, answers } = lane();
    await made.send(call("pc-4", "refused with its id"));
    assert.deepEqual(answers, [
      {
        jsonrpc: "2.0",
        id: "pc-4",
        error: { code: -32602, message: "refused refused with its id" },
      },
    ]);
    await made.close();
  });

  it("fails on a 400 that answers no request of its own, saying what the server said", async () => {
    const { lane: made, answers } = lane();
    await assert.rejects(made.send(call("pc-5", "refused without an id")), (error: Error) => {
      assert.match(error.message, /Error POSTing to endpoint: .*refused refused without an id/);
      assert.equal((error as { data?: { status?: number } }).data?.status, 400);
      return true;
    });
    assert.deepEqual(answers, []);
    await made.close();
  });
});

// The connection above a server's transport: one id space for the SDK client's requests and its
// own, one table of waiting requests, answers routed back by it alone. Driven over the SDK's
// in-memory transport pair: the test holds the server's end and answers by hand.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/client";
import { McpCallError } from "../src/mcp-session.js";
import { Connection, type ConnectionEra } from "../src/wire/connection.js";

type Message = Record<string, unknown> & { id?: number | string; method?: string };

/** A connection on one end of a linked pair; the test is the server on the other. */
async function wired(era?: ConnectionEra) {
  const [near, far] = InMemoryTransport.createLinkedPair();
  const connection = new Connection(near, era);
  const toServer: Message[] = [];
  const toClient: Message[] = [];
  const errors: string[] = [];
  far.onmessage = (message) => void toServer.push(message as Message);
  connection.onmessage = (message) => void toClient.push(message as Message);
  connection.onerror = (error) => void errors.push(error.message);
  await far.start();
  await connection.start();
  const serverSays = (message: Message) => far.send(message as JSONRPCMessage);
  return { connection, toServer, toClient, errors, serverSays, far };
}

const never = { signal: new AbortController().signal };
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the connection", () => {
  it("gives the client's requests and its own one sequence of ids, and each answer back to its sender", async () => {
    const { connection, toServer, toClient, serverSays } = await wired();
    await connection.send({ jsonrpc: "2.0", id: 0, method: "tools/list", params: {} });
    const own = connection.request("tools/call", { name: "echo" }, never);
    await connection.send({ jsonrpc: "2.0", id: "client-a", method: "ping" });
    await settle();
    assert.deepEqual(
      toServer.map((message) => [message.id, message.method]),
      [
        [1, "tools/list"],
        [2, "tools/call"],
        [3, "ping"],
      ],
    );
    await serverSays({ jsonrpc: "2.0", id: 3, result: {} });
    await serverSays({ jsonrpc: "2.0", id: 2, result: { content: [] } });
    await serverSays({ jsonrpc: "2.0", id: 1, result: { tools: [] } });
    assert.deepEqual(await own, { content: [] });
    await settle();
    assert.deepEqual(
      toClient.map((message) => message.id),
      ["client-a", 0],
      "the client hears its own ids, and nothing of the connection's request",
    );
  });

  it("hands an answer to an id nobody waits for to nobody, and says so", async () => {
    const { connection, toClient, errors, serverSays } = await wired();
    await connection.send({ jsonrpc: "2.0", id: 7, method: "tools/list" });
    // The client's own id, as a server guessing it would send it: not ours, so not delivered.
    await serverSays({ jsonrpc: "2.0", id: 7, result: { tools: ["forged"] } });
    await serverSays({ jsonrpc: "2.0", id: 99, result: {} });
    await settle();
    assert.deepEqual(toClient, []);
    assert.equal(errors.length, 2);
    assert.match(errors[0]!, /not waiting \(id 7\)/);
  });

  it("sends the client's cancellation under the connection's id, and drops the late answer", async () => {
    const { connection, toServer, toClient, errors, serverSays } = await wired();
    await connection.send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: {} });
    await connection.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 4, reason: "stop" },
    });
    await settle();
    assert.deepEqual(toServer[1], {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 1, reason: "stop" },
    });
    await serverSays({ jsonrpc: "2.0", id: 1, result: {} });
    await settle();
    assert.deepEqual(toClient, []);
    assert.equal(errors.length, 1);
  });

  it("cancels its own request on abort, telling the server, and rejects it as cancelled", async () => {
    const { connection, toServer } = await wired();
    const abort = new AbortController();
    const call = connection.request("tools/call", { name: "slow" }, { signal: abort.signal });
    await settle();
    abort.abort("enough");
    await assert.rejects(
      call,
      (error) => error instanceof McpCallError && error.reason === "cancelled",
    );
    await settle();
    assert.deepEqual(toServer[1]?.params, { requestId: 1, reason: "enough" });
  });

  it("rejects its own request with the server's JSON-RPC error, code and data kept", async () => {
    const { connection, serverSays } = await wired();
    const call = connection.request("tools/call", { name: "x" }, never);
    await settle();
    await serverSays({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32042, message: "needs a URL", data: { url: "https://x" } },
    });
    await assert.rejects(
      call,
      (error) =>
        error instanceof McpCallError &&
        error.rpc?.code === -32042 &&
        (error.rpc.data as { url?: string }).url === "https://x",
    );
  });

  it("fails its own waiting requests when the transport closes", async () => {
    const { connection, far } = await wired();
    const call = connection.request("tools/call", { name: "x" }, never);
    await settle();
    await far.close();
    await assert.rejects(
      call,
      (error) => error instanceof McpCallError && error.reason === "session",
    );
  });

  it("2026-07-28: names a subscription by the client's id, and gives a result without resultType a complete one", async () => {
    const { connection, toClient, serverSays } = await wired({
      completeResults: true,
      subscriptions: true,
    });
    await connection.send({ jsonrpc: "2.0", id: "listen-1", method: "subscriptions/listen" });
    await connection.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    await settle();
    const meta = "io.modelcontextprotocol/subscriptionId";
    await serverSays({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { _meta: { [meta]: 1 } },
    });
    await serverSays({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
      params: { _meta: { [meta]: 1 } },
    });
    // A cancellation of a request the server itself sent keeps its id.
    await serverSays({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 2 },
    });
    await serverSays({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 1 },
    });
    await serverSays({ jsonrpc: "2.0", id: 2, result: { tools: [] } });
    await settle();
    assert.deepEqual(toClient, [
      {
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: { _meta: { [meta]: "listen-1" } },
      },
      {
        jsonrpc: "2.0",
        method: "notifications/tools/list_changed",
        params: { _meta: { [meta]: "listen-1" } },
      },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "listen-1" } },
      { jsonrpc: "2.0", id: 2, result: { tools: [], resultType: "complete" } },
    ]);
  });
});

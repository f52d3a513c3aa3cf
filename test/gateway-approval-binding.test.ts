// A client's answer counts only for the call it was asked about: the gateway signs the tool and
// its arguments into `requestState`. Driven by hand with the v2 client in its manual
// multi-round-trip mode (2026-07-28), as a hostile or careless client would send them.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createGatewayWorkspace, type GatewayWorkspace } from "./support/gateway-workspace.js";

interface Round {
  resultType?: string;
  inputRequests?: Record<string, { method?: string; params?: { message?: string } }>;
  requestState?: string;
  content?: Array<{ type: string; text?: string }>;
  isError?: boolean;
}

const ALLOW = { approve: { action: "accept", content: { allow: true } } };

describe("gateway: an approval is bound to its call", () => {
  let workspace: GatewayWorkspace;
  let client: Client;
  const call = (params: Record<string, unknown>) =>
    client.callTool(params as never, { allowInputRequired: true } as never) as Promise<Round>;

  before(async () => {
    workspace = await createGatewayWorkspace();
    client = new Client({ name: "manual-client", version: "1.0.0" }, {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: "2026-07-28" } },
      inputRequired: { autoFulfill: false },
    } as never);
    await client.connect(new StdioClientTransport({ ...workspace.stdio(), stderr: "pipe" }));
  });
  after(async () => {
    await client?.close();
    await workspace?.cleanup();
  });

  test("the first round asks, with a signed state", async () => {
    const first = await call({ name: "mcp__behaviours__progress", arguments: {} });
    assert.equal(first.resultType, "input_required");
    assert.equal(first.inputRequests?.approve?.method, "elicitation/create");
    assert.match(
      first.inputRequests?.approve?.params?.message ?? "",
      /Allow mcp__behaviours__progress/,
    );
    assert.ok(first.requestState);
  });

  test("an answer sent with no question is not taken: the client is asked", async () => {
    const unasked = await call({
      name: "mcp__behaviours__progress",
      arguments: {},
      inputResponses: ALLOW,
    });
    assert.equal(unasked.resultType, "input_required");
  });

  test("an answer replayed for another call is not taken", async () => {
    const first = await call({ name: "mcp__behaviours__progress", arguments: {} });
    const other = await call({
      name: "run_command",
      arguments: { command: "echo replayed" },
      inputResponses: ALLOW,
      requestState: first.requestState,
    });
    assert.equal(other.resultType, "input_required", JSON.stringify(other));
    assert.match(other.inputRequests?.approve?.params?.message ?? "", /Allow run_command/);
    // Same tool, other arguments: asked again too.
    const asked = await call({ name: "run_command", arguments: { command: "echo one" } });
    const swapped = await call({
      name: "run_command",
      arguments: { command: "echo two" },
      inputResponses: ALLOW,
      requestState: asked.requestState,
    });
    assert.equal(swapped.resultType, "input_required");
  });

  test("a tampered state is refused", async () => {
    const first = await call({ name: "mcp__behaviours__progress", arguments: {} });
    const state = first.requestState as string;
    // One character changed, always to another one (the key is random, so is the state).
    const tampered = `${state.slice(0, -2)}${state.at(-2) === "A" ? "B" : "A"}${state.slice(-1)}`;
    await assert.rejects(
      call({
        name: "mcp__behaviours__progress",
        arguments: {},
        inputResponses: ALLOW,
        requestState: tampered,
      }),
      /Invalid or expired requestState/,
    );
  });

  test("the answer to the question asked runs the call, once", async () => {
    const first = await call({ name: "mcp__behaviours__progress", arguments: {} });
    const done = await call({
      name: "mcp__behaviours__progress",
      arguments: {},
      inputResponses: ALLOW,
      requestState: first.requestState,
    });
    assert.notEqual(done.resultType, "input_required");
    assert.equal(done.isError, undefined);
    assert.match(done.content?.[0]?.text ?? "", /progress done/);
    // Once: the upstream server ran it once, in this whole file (every earlier round was asked
    // and refused), and nothing else ran.
    const calls = (await workspace.upstreamLog()).filter((line) => line.startsWith("call "));
    assert.deepEqual(calls, ["call progress"]);
  });
});

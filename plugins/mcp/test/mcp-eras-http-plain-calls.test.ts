// Plain 2026-07-28 tool calls over Streamable HTTP: they go over our channel's lane beside the
// v2 client, with the client's envelope and the standard headers (Mcp-Method, Mcp-Name); a
// tool whose parameters become headers (x-mcp-header) goes through the client, which mirrors
// them; a cancelled plain call closes its stream and the server's handler hears of it.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Agent, textOf } from "@pseudoclaude/core";
import { startHttpServer } from "@pseudoclaude/testing/system";
import { seenPlainAndThroughClient } from "./support/mcp-era-agent.js";
import { abortSlowCall, elicitingAgent, fixture, scratch } from "./support/mcp-fixtures.js";

const TIMEOUT = { timeout: 60_000 };

type Seen = { id: unknown; envelope?: Record<string, unknown>; region?: string };

describe("plain 2026-07-28 tool calls over Streamable HTTP", () => {
  let log: Awaited<ReturnType<typeof scratch>>;
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  let agent: Agent;
  before(async () => {
    log = await scratch();
    server = await startHttpServer({
      script: fixture("modern-http"),
      env: { FIXTURE_LOG: log.log, FIXTURE_MODERN_ONLY: "1" },
    });
    ({ agent } = await elicitingAgent({ web: { type: "http", url: server.url("/mcp") } }));
  });
  after(async () => {
    await agent?.close();
    await server?.stop();
    await log?.cleanup();
  });

  it("carry the client's envelope and the standard headers", TIMEOUT, async () => {
    // The second wants progress, which sends it through the client.
    const [seenPlain, seenClient] = await seenPlainAndThroughClient(
      agent,
      "mcp__web__request_meta",
    );
    // One id space: the connection numbers its own requests and the client's in one sequence.
    assert.equal(typeof seenPlain.id, "number", "the plain call's id is the connection's");
    assert.ok(Number(seenClient.id) > Number(seenPlain.id), "the client's request came next");
    assert.equal(seenPlain.envelope?.["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    assert.deepEqual(seenPlain.envelope, seenClient.envelope);
    const names = (await log.lines()).filter((line) => line === "mcp-name request_meta");
    assert.equal(names.length, 2, "both calls named the tool in Mcp-Name");
  });

  it("leave a tool whose parameters become headers to the client", TIMEOUT, async () => {
    const call = await agent.callTool("mcp__web__regional", { region: "eu-west" });
    assert.equal(call.result.ok, true, JSON.stringify(call.result));
    const seen = JSON.parse(textOf(call.result.content)) as Seen;
    assert.equal(typeof seen.id, "number", "the call went through the client");
    assert.equal(seen.region, "eu-west");
    assert.ok(
      (await log.lines()).includes("mcp-param-region eu-west"),
      "the client mirrored the parameter as Mcp-Param-Region",
    );
    const echo = await agent.callTool("mcp__web__echo", { text: "plain again" });
    assert.equal(textOf(echo.result.content), "plain again");
  });

  it("cancel a plain call by closing its stream", TIMEOUT, async () => {
    const cancelled = await abortSlowCall(agent, "mcp__web__slow", log);
    assert.equal(cancelled.result.ok, false);
    const echo = await agent.callTool("mcp__web__echo", { text: "after the cancel" });
    assert.equal(textOf(echo.result.content), "after the cancel");
  });
});

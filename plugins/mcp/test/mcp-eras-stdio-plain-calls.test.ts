// Plain 2026-07-28 tool calls over stdio: they go over our own channel beside the v2 client,
// carrying the envelope the client stamps on its own requests; a tool that asks for input
// (input_required) is made again through the client, and goes through it from then on; an
// answer the call cannot take is a clear error.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { textOf } from "@pseudoclaude/core";
import {
  type SeenRequest,
  seenPlainAndThroughClient,
  withEraAgent,
} from "./support/mcp-era-agent.js";
import { serverPart, stdioFixture } from "./support/mcp-fixtures.js";

const TIMEOUT = { timeout: 60_000 };
const MODERN_ONLY = { env: { FIXTURE_MODERN_ONLY: "1" } };

type Seen = SeenRequest;

describe("plain 2026-07-28 tool calls over stdio", () => {
  it("carry the same envelope as the v2 client's own requests", TIMEOUT, async () => {
    await withEraAgent({ modern: stdioFixture("modern", MODERN_ONLY) }, async (agent) => {
      assert.equal(serverPart(agent, "modern")?.protocolVersion, "2026-07-28");
      // The second wants progress, which sends it through the client.
      const [seenPlain, seenClient] = await seenPlainAndThroughClient(
        agent,
        "mcp__modern__request_meta",
      );
      // One id space: the connection numbers its own requests and the client's in one sequence.
      assert.equal(typeof seenPlain.id, "number", "the plain call's id is the connection's");
      assert.ok(Number(seenClient.id) > Number(seenPlain.id), "the client's request came next");
      assert.equal(seenPlain.envelope?.["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
      assert.deepEqual(
        (
          seenPlain.envelope?.["io.modelcontextprotocol/clientInfo"] as
            | { name?: unknown }
            | undefined
        )?.name,
        "pseudoclaude",
      );
      assert.deepEqual(seenPlain.envelope, seenClient.envelope);
    });
  });

  it(
    "make a tool that asked for input again through the client, and every later call of it",
    TIMEOUT,
    async () => {
      await withEraAgent(
        { modern: stdioFixture("modern", MODERN_ONLY) },
        async (agent, log, asked) => {
          for (const action of ["deploy", "ship"]) {
            const confirmed = await agent.callTool("mcp__modern__confirm_action", { action });
            assert.equal(confirmed.result.ok, true, JSON.stringify(confirmed.result));
            assert.equal(textOf(confirmed.result.content), `${action}: done`);
          }
          assert.deepEqual(
            asked.map((request) => request.message),
            ["Really deploy?", "Really ship?"],
            "each call asked the person once",
          );
          const legs = (await log.lines()).filter((line) => line.startsWith("leg confirm_action"));
          assert.deepEqual(legs, [
            // The first call: plain, asked for input, made again through the client.
            "leg confirm_action asks",
            "leg confirm_action asks",
            "leg confirm_action answered",
            // The second: through the client alone (a plain try first would ask twice).
            "leg confirm_action asks",
            "leg confirm_action answered",
          ]);
          const echo = await agent.callTool("mcp__modern__request_meta", {});
          const seen = JSON.parse(textOf(echo.result.content)) as Seen;
          assert.equal(typeof seen.id, "number", "other tools' ids are the connection's too");
          assert.equal(seen.envelope?.["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
        },
      );
    },
  );

  it("refuse a task from a server without the Tasks extension, saying so", TIMEOUT, async () => {
    await withEraAgent(
      { hostile: stdioFixture("hostile", { env: { FIXTURE_ERA: "2026" } }) },
      async (agent) => {
        assert.equal(serverPart(agent, "hostile")?.protocolVersion, "2026-07-28");
        const odd = await agent.callTool("mcp__hostile__unasked_task", {});
        assert.equal(odd.result.ok, false);
        assert.match(
          JSON.stringify(odd.result),
          /resultType \\"task\\", which a call without the Tasks extension cannot take/,
        );
        const echo = await agent.callTool("mcp__hostile__echo", { text: "still here" });
        assert.equal(textOf(echo.result.content), "still here");
      },
    );
  });
});

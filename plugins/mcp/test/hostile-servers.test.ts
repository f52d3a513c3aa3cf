import assert from "node:assert/strict";
import os from "node:os";
import { describe, it } from "node:test";
import { type Agent, createAgent } from "@pseudoclaude/core";
import { type McpServerEntry, mcp } from "@pseudoclaude/plugin-mcp";
import {
  collectGarbage,
  describePids,
  markedProcesses,
  markerEnv,
  newMarker,
  stillRunningAfter,
} from "@pseudoclaude/testing/system";
import {
  eventually,
  FIXTURE_ERAS,
  type FixtureEra,
  fixture,
  scratch,
  serverPart,
  stdioFixture,
} from "./support/mcp-fixtures.js";

/**
 * Hostile stdio servers (plugins/mcp/test/fixtures/hostile.ts, written without the SDK so it can break
 * the protocol itself) next to a healthy one, through the real plugin. For each: the agent
 * stays up, the healthy server's tools keep working, the hostile call ends within its timeout
 * with the right error, and after close no process of either server's tree is left. Each
 * runs in both protocol eras (FIXTURE_ERA=2026 makes the hostile server speak 2026-07-28 alone,
 * next to a healthy v2 server), with the default `protocol: auto` finding the era.
 */
const TIMEOUT = { timeout: 60_000 };
const CLOSE_BOUND_MS = 8_000;

/** An era, the request that opens a connection in it, and a healthy server of that era alone. */
interface Era extends FixtureEra {
  opening: string;
  healthy: (env: Record<string, string>) => McpServerEntry;
}

const [OLD, NEW] = FIXTURE_ERAS as [FixtureEra, FixtureEra];
const ERAS: Era[] = [
  { ...OLD, opening: "initialize", healthy: (env) => stdioFixture("behaviours", { env }) },
  {
    ...NEW,
    opening: "server/discover",
    healthy: (env) => stdioFixture("modern", { env: { ...env, FIXTURE_MODERN_ONLY: "1" } }),
  },
];

interface Hostile {
  agent: Agent;
  lines(): Promise<string[]>;
}

async function withHostile(
  era: Era,
  modes: string,
  extra: { env?: Record<string, string>; server?: Record<string, unknown> },
  body: (hostile: Hostile) => Promise<void>,
): Promise<void> {
  const marker = newMarker();
  const log = await scratch();
  const agent = await createAgent({
    config: false,
    workspace: os.tmpdir(),
    policy: { mode: "bypass" },
    plugins: [
      mcp({
        servers: {
          hostile: {
            type: "stdio",
            command: process.execPath,
            args: [fixture("hostile")],
            env: {
              HOSTILE: modes,
              FIXTURE_LOG: log.log,
              ...era.env,
              ...extra.env,
              ...markerEnv(marker),
            },
            ...extra.server,
          } as McpServerEntry,
          healthy: era.healthy(markerEnv(marker)),
        },
      }),
    ],
  });
  try {
    assert.equal(serverPart(agent, "healthy")?.protocolVersion, era.version);
    const hostile = serverPart(agent, "hostile");
    if (hostile?.state === "ready") assert.equal(hostile.protocolVersion, era.version);
    await body({ agent, lines: log.lines });
    const echo = await agent.callTool("mcp__healthy__echo", { text: "still here" });
    assert.equal(echo.result.ok, true, `the healthy server still answers (${modes})`);
  } finally {
    const started = Date.now();
    await agent.close();
    const elapsed = Date.now() - started;
    const left = await stillRunningAfter(markedProcesses(marker), 2_000);
    await log.cleanup();
    assert.deepEqual(left, [], `left running after close (${modes}): ${describePids(left)}`);
    assert.ok(elapsed < CLOSE_BOUND_MS, `close took ${elapsed} ms (${modes})`);
  }
}

function text(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((block) => block.text ?? "").join("");
}

for (const era of ERAS) {
  describe(`hostile stdio servers (${era.version}): framing`, () => {
    for (const modes of [
      "garbage",
      "split",
      "unknown_ids",
      "duplicates",
      "garbage,split,unknown_ids",
    ]) {
      it(`still serves calls when the server sends ${modes}`, TIMEOUT, async () => {
        await withHostile(era, modes, {}, async ({ agent }) => {
          for (let i = 0; i < 5; i++) {
            const { result } = await agent.callTool("mcp__hostile__echo", { text: `call ${i}` });
            assert.equal(result.ok, true, JSON.stringify(result.error));
            assert.equal(text(result), `call ${i}`, "each answer is matched to its own call");
          }
          const together = await Promise.all(
            Array.from({ length: 10 }, (_, i) =>
              agent.callTool("mcp__hostile__echo", { text: `parallel ${i}` }),
            ),
          );
          for (const [i, { result }] of together.entries())
            assert.equal(text(result), `parallel ${i}`);
        });
      });
    }
  });

  describe(`hostile stdio servers (${era.version}): order within a chunk`, () => {
    it("hands on a call's progress written in the same chunk as its answer", TIMEOUT, async () => {
      await withHostile(era, "", {}, async ({ agent }) => {
        for (let i = 0; i < 3; i++) {
          const seen: number[] = [];
          const { result } = await agent.callTool(
            "mcp__hostile__burst",
            {},
            { onProgress: (progress) => seen.push(progress.progress) },
          );
          assert.equal(text(result), "burst done");
          assert.deepEqual(seen, [1, 2, 3], "every progress reaches the call, the last one too");
        }
      });
    });
  });

  describe(`hostile stdio servers (${era.version}): size and storms`, () => {
    it(
      "takes a single 50 MB message, returns a bounded result and gives the memory back",
      TIMEOUT,
      async () => {
        await withHostile(era, "", {}, async ({ agent }) => {
          collectGarbage();
          const before = process.memoryUsage().heapUsed;
          const { result } = await agent.callTool("mcp__hostile__huge", {}, { timeoutMs: 30_000 });
          assert.equal(result.ok, true, JSON.stringify(result.error));
          assert.ok(
            text(result).length < 1_000_000,
            `result cut to a bounded size: ${text(result).length}`,
          );
          // The result is still held here: what it kept must not hold the 50 MB it was cut from.
          collectGarbage();
          const grown = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
          assert.ok(grown < 20, `heap grew by ${grown.toFixed(1)} MB with the result held`);
        });
      },
    );

    it("registers 10,000 tools of one list and calls one of them", TIMEOUT, async () => {
      await withHostile(era, "", { env: { HOSTILE_TOOLS: "10000" } }, async ({ agent }) => {
        assert.ok(agent.registry.get("mcp__hostile__filler_9999"), "the last tool is registered");
        const { result } = await agent.callTool("mcp__hostile__echo", { text: "among many" });
        assert.equal(text(result), "among many");
      });
    });

    it(
      "survives 1,000 list_changed notifications in a second without re-listing 1,000 times",
      TIMEOUT,
      async () => {
        await withHostile(era, "", {}, async ({ agent, lines }) => {
          const { result } = await agent.callTool("mcp__hostile__storm", {}, { timeoutMs: 20_000 });
          assert.equal(text(result), "stormed");
          // Give the re-lists the storm triggered time to run, then count them.
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          const lists = (await lines()).filter((line) => line === "tools/list").length;
          assert.ok(lists >= 2, `the change was seen (${lists} lists)`);
          assert.ok(lists <= 20, `re-lists were coalesced: ${lists} lists for 1,000 notifications`);
          assert.ok(agent.registry.get("mcp__hostile__echo"), "tools still registered");
        });
      },
    );
  });

  describe(`hostile stdio servers (${era.version}): results against their outputSchema`, () => {
    it(
      "fails a call whose structuredContent breaks the tool's outputSchema as mcp_output_invalid",
      TIMEOUT,
      async () => {
        await withHostile(era, "", {}, async ({ agent }) => {
          const good = (await agent.callTool("mcp__hostile__shaped", { answer: "good" })).result;
          assert.equal(good.ok, true, JSON.stringify(good.error));
          assert.deepEqual(good.structured, { n: 1, unit: "m" });

          const wrong = (await agent.callTool("mcp__hostile__shaped", { answer: "wrong" })).result;
          assert.equal(wrong.ok, false);
          assert.equal(wrong.error?.code, "mcp_output_invalid");
          assert.match(wrong.error?.message ?? "", /n: must be number; unit: must be string/);
          assert.deepEqual(wrong.metadata.issues, [
            { path: "n", message: "must be number" },
            { path: "unit", message: "must be string" },
          ]);
          assert.deepEqual(wrong.metadata.structured_content, { n: "one", unit: 3 });
          assert.equal(wrong.structured, undefined, "the value is not handed on as conforming");
          assert.equal(wrong.metadata.server, "hostile");

          const none = (await agent.callTool("mcp__hostile__shaped", { answer: "none" })).result;
          assert.equal(none.error?.code, "mcp_output_invalid");
          assert.match(none.error?.message ?? "", /\(structuredContent\): is missing/);
        });
      },
    );
  });

  describe(`hostile stdio servers (${era.version}): time`, () => {
    it(
      "ends a call the server answers only after its timeout, cancels it there, and ignores the late answer",
      TIMEOUT,
      async () => {
        await withHostile(
          era,
          "",
          { env: { HOSTILE_LATE_MS: "1500" }, server: { call_timeout_ms: 300 } },
          async ({ agent, lines }) => {
            const started = Date.now();
            const { result } = await agent.callTool("mcp__hostile__late", {});
            const elapsed = Date.now() - started;
            assert.equal(result.error?.code, "mcp_call_error");
            assert.equal(result.metadata.reason, "timeout");
            assert.ok(elapsed < 300 + 1_000, `ended ${elapsed} ms after it started (timeout 300)`);
            // One timeout, and the server is told: a cancellation names the call's request id.
            await eventually(
              async () => (await lines()).includes("cancelled late"),
              1_000,
              "notifications/cancelled for the timed-out call",
            );
            await new Promise((resolve) => setTimeout(resolve, 1_500)); // the late answer arrives
            const echo = await agent.callTool("mcp__hostile__echo", { text: "after" });
            assert.equal(text(echo.result), "after", "the late answer went nowhere");
          },
        );
      },
    );
  });

  describe(`hostile stdio servers (${era.version}): crashing in each phase`, () => {
    for (const [phase, mode] of [
      [era.opening, "crash_initialize"],
      ["tools/list", "crash_list"],
    ] as const) {
      it(`reports a server that exits during ${phase}, and keeps the others`, TIMEOUT, async () => {
        await withHostile(era, mode, {}, async ({ agent }) => {
          const source = agent.sources().find((s) => s.id === "mcp:hostile")!;
          assert.equal(source.status.state, "failed", JSON.stringify(agent.diagnostics()));
          assert.ok(
            agent.diagnostics().some((d) => d.source === "mcp:hostile" && d.severity === "error"),
            "the failure is a diagnostic",
          );
        });
      });
    }

    it("fails the call in flight when the server exits during it", TIMEOUT, async () => {
      await withHostile(era, "crash_call", {}, async ({ agent }) => {
        const { result } = await agent.callTool("mcp__hostile__echo", { text: "x" });
        assert.equal(result.error?.code, "mcp_call_error");
        assert.equal(result.metadata.reason, "session");
      });
    });

    it("closes a server that exits with an error when its stdin closes", TIMEOUT, async () => {
      await withHostile(era, "crash_close", {}, async ({ agent }) => {
        const { result } = await agent.callTool("mcp__hostile__echo", { text: "x" });
        assert.equal(text(result), "x");
      });
    });

    it(
      "kills a server that ignores SIGTERM and its grandchildren that ignore it too",
      TIMEOUT,
      async () => {
        await withHostile(era, "ignore_term,grandchildren", {}, async ({ agent, lines }) => {
          const { result } = await agent.callTool("mcp__hostile__echo", { text: "x" });
          assert.equal(text(result), "x");
          const grandchildren = (await lines()).filter((line) => line.startsWith("grandchild "));
          assert.equal(grandchildren.length, 2);
        });
      },
    );
  });

  // Requests from server to client exist in 2025-11-25 only: 2026-07-28 replaced them with
  // input_required results, which ask only through capabilities the client declared.
  if (era.version === "2025-11-25")
    describe(`hostile stdio servers (${era.version}): requests the client never declared`, () => {
      it(
        "refuses sampling without opt-in, and elicitation without a callback (neither was declared)",
        TIMEOUT,
        async () => {
          await withHostile(era, "undeclared", {}, async ({ agent, lines }) => {
            await eventually(
              async () =>
                (await lines()).filter((line) => line.startsWith("client answered")).length >= 2,
              5_000,
              "the client answered both requests",
            );
            const answered = (await lines()).filter((line) => line.startsWith("client answered"));
            const sampling = answered.find((line) => line.startsWith("client answered s1"))!;
            const elicitation = answered.find((line) => line.startsWith("client answered e1"))!;
            assert.match(sampling, /"error"/, "sampling was refused with an error");
            assert.match(elicitation, /"error"/, "elicitation was refused with an error");
            assert.doesNotMatch(elicitation, /"accept"/);
            const { result } = await agent.callTool("mcp__hostile__echo", { text: "x" });
            assert.equal(text(result), "x");
          });
        },
      );
    });
}

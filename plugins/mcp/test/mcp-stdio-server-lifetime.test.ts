// End to end over real stdio: the life of a stdio server's processes. Close ends a wrapper, the
// server and its grandchild (even one that ignores SIGTERM), and the connect budget bounds only
// the connect, not how long the server may live.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { textOf } from "@pseudoclaude/core";
import { createTempWorkspace } from "@pseudoclaude/testing";
import {
  commandLine,
  describePids,
  isRunning,
  markedProcesses,
  parentOf,
  stillRunningAfter,
} from "@pseudoclaude/testing/system";
import { FIXTURE_ERAS, type FixtureEra, fixture, serverPart } from "./support/mcp-fixtures.js";
import { CLOSE_BOUND_MS, startAgent, statsOf, TIMEOUT } from "./support/mcp-reference-servers.js";

describe("process hygiene of stdio servers", () => {
  async function wrappedGrandchild(ignoreTerm: boolean, era: FixtureEra) {
    const workspace = await createTempWorkspace("pc-e2e-procs-");
    const log = path.join(workspace.root, "fixture.log");
    const harness = await startAgent(
      {
        wrapped: {
          type: "stdio",
          command: "sh",
          // `; true` keeps sh alive as the server's parent, like npx and other wrappers.
          args: ["-c", `"${process.execPath}" "${fixture("with-grandchild")}" ; true`],
          env: {
            FIXTURE_LOG: log,
            ...era.env,
            ...(ignoreTerm ? { FIXTURE_IGNORE_TERM: "1" } : {}),
          },
        },
      },
      {},
      workspace,
    );
    try {
      assert.ok(harness.agent.registry.get("mcp__wrapped__noop"), "the wrapped server connected");
      assert.equal(serverPart(harness.agent, "wrapped")?.protocolVersion, era.version);
      const lines = (await readFile(log, "utf8")).split("\n");
      const pidOf = (role: string) =>
        Number(lines.find((line) => line.startsWith(`${role} `))?.split(" ")[1]);
      const server = pidOf("server");
      const grandchild = pidOf("grandchild");
      const all = markedProcesses(harness.marker);
      const wrapper = all.find((pid) => pid !== server && pid !== grandchild);
      assert.ok(all.includes(server) && all.includes(grandchild), describePids(all));
      assert.equal(all.length, 3, `sh, server, grandchild: ${describePids(all)}`);
      assert.ok(wrapper !== undefined && /^sh -c/.test(commandLine(wrapper)), describePids(all));
      assert.equal(parentOf(server), wrapper);
      assert.equal(parentOf(grandchild), server);

      const started = Date.now();
      await harness.agent.close();
      const elapsed = Date.now() - started;
      assert.ok(elapsed < CLOSE_BOUND_MS, `close took ${elapsed} ms`);
      const left = await stillRunningAfter([wrapper, server, grandchild]);
      assert.deepEqual(left, [], `still running after close: ${describePids(left)}`);
      assert.deepEqual(markedProcesses(harness.marker), []);
      return await readFile(log, "utf8");
    } finally {
      await harness.dispose(); // close is safe to call twice
    }
  }

  for (const era of FIXTURE_ERAS) {
    it(
      `ends a sh -c wrapper, the server under it and the server's grandchild on close (${era.version})`,
      TIMEOUT,
      async () => {
        await wrappedGrandchild(false, era);
      },
    );

    it(
      `kills a server that ignores SIGTERM, with its wrapper and grandchild, within the bound (${era.version})`,
      TIMEOUT,
      async () => {
        const log = await wrappedGrandchild(true, era);
        assert.match(log, /ignored SIGTERM/, "SIGTERM came first, then SIGKILL ended it");
      },
    );
  }
});

describe("the connect budget does not bound the server's life", () => {
  it(
    "still calls the same server process after its connect_timeout_ms has passed",
    TIMEOUT,
    async () => {
      const harness = await startAgent(
        {
          beh: {
            type: "stdio",
            command: process.execPath,
            args: [fixture("behaviours")],
            connect_timeout_ms: 1_500,
          },
        },
        { policy: { allow: ["mcp__beh__*"] } },
      );
      try {
        assert.equal(
          statsOf(harness.agent, "beh").state,
          "ready",
          `connected within the 1.5 s budget: ${JSON.stringify(harness.agent.diagnostics())}`,
        );
        const [pid, ...others] = markedProcesses(harness.marker);
        assert.ok(pid !== undefined && others.length === 0, "one server process");
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        assert.equal(isRunning(pid), true, "the server outlived the connect budget");

        const echo = await harness.agent.callTool("mcp__beh__echo", { text: "late" });
        assert.equal(echo.decision.verdict, "allow");
        assert.equal(echo.result.ok, true, JSON.stringify(echo.result));
        assert.deepEqual(echo.result.content, [{ type: "text", text: "late" }]);
        // A reconnect would hide the defect: the call must have reached the first process.
        const served = await harness.agent.callTool("mcp__beh__pid", {});
        assert.equal(textOf(served.result.content), String(pid));
        const codes = harness.agent.diagnostics().map((diagnostic) => diagnostic.code);
        assert.ok(!codes.includes("server_disconnected"), codes.join());
        assert.ok(!codes.includes("reconnected"), codes.join());
      } finally {
        await harness.dispose();
      }
    },
  );
});

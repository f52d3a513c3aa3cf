// `chat --json` tells a program when each call runs and ends (tool-run-start, tool-run-end with
// its own duration), before the turn's tool-call-end events, and how long an approval took.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { describe, it } from "node:test";
import { BIN, TOOLS_PLUGIN, withWorkspace } from "./support/cli.js";

describe("chat --json tool runs", () => {
  it("emits each call's run as it ends, with its name and duration", async () => {
    await withWorkspace(async (workspace) => {
      await workspace.write(
        "script.json",
        JSON.stringify([
          {
            tool_calls: [
              { id: "long", name: "slow", arguments: { ms: 300 } },
              { id: "short", name: "slow", arguments: { ms: 10 } },
              { id: "note", name: "write_note", arguments: { note: "x" } },
            ],
          },
          { text: "Done." },
        ]),
      );
      const child = spawn(
        process.execPath,
        [BIN, "chat", "--json", "--yes", "--script", "script.json", "--plugin", TOOLS_PLUGIN],
        { cwd: workspace.root, env: { ...process.env, HOME: workspace.home } },
      );
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stdin.end("go\n");
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      assert.equal(code, 0);
      const events = stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const order = events
        .filter((event) => String(event.type).startsWith("tool-"))
        .map((event) => `${event.type} ${event.id}`);
      // The two read-only calls run together (the short one ends first), then the write; the
      // turn's tool-call-end events follow, in call order.
      assert.deepEqual(order.slice(-9), [
        "tool-run-start long",
        "tool-run-start short",
        "tool-run-end short",
        "tool-run-end long",
        "tool-run-start note",
        "tool-run-end note",
        "tool-call-end long",
        "tool-call-end short",
        "tool-call-end note",
      ]);
      const longRun = events.find((event) => event.type === "tool-run-end" && event.id === "long");
      assert.equal(longRun?.name, "slow");
      assert.equal(longRun?.ok, true);
      assert.ok(Number(longRun?.duration_ms) >= 290, JSON.stringify(longRun));
      // Only the side-effect call was asked about (--yes answered): its wait is reported.
      const decisions = events.filter((event) => event.type === "tool-decision");
      assert.deepEqual(
        decisions.map((event) => typeof event.approval_wait_ms),
        ["undefined", "undefined", "number"],
      );
    });
  });
});

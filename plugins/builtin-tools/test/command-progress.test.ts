// A running command's output reaches whoever listens to the call's progress while it runs, so
// a chat can show a long command moving; nobody listening costs nothing.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ToolProgress } from "@pseudoclaude/core/plugin";
import { outputProgress } from "../src/process/output-progress.js";
import { withTools } from "./support/agent.js";

describe("run_command progress", () => {
  it("reports the latest output line while the command still runs", async () => {
    await withTools({}, async ({ agent, call }) => {
      const seen: Array<{ progress: ToolProgress; at: number }> = [];
      agent.on("tool-progress", ({ progress }) => seen.push({ progress, at: performance.now() }));
      const result = await call("run_command", {
        command: "echo one; sleep 0.8; echo two; sleep 0.8; echo three",
      });
      const ended = performance.now();
      assert.equal(result.ok, true);
      assert.deepEqual(
        seen.map(({ progress }) => progress),
        [
          { progress: 1, message: "one" },
          { progress: 2, message: "two" },
          { progress: 3, message: "three" },
        ],
      );
      // "one" came while the command had more than a second to go.
      assert.ok(ended - seen[0]!.at > 1_000, `reported ${ended - seen[0]!.at} ms before the end`);
    });
  });

  it("keeps reports at least half a second apart and ends lines where they end", () => {
    let now = 0;
    const reports: ToolProgress[] = [];
    const feed = outputProgress(
      (progress) => reports.push(progress),
      () => now,
    );
    feed("compiling a");
    assert.deepEqual(reports, [], "a line is reported once it ends");
    feed(".ts\ncompiling b.ts\r\n");
    now = 100;
    feed("compiling c.ts\n");
    now = 700;
    feed("\n  \ndone\n");
    assert.deepEqual(reports, [
      { progress: 2, message: "compiling b.ts" },
      { progress: 6, message: "done" },
    ]);
  });

  it("bounds a line that never ends", () => {
    const reports: ToolProgress[] = [];
    const feed = outputProgress((progress) => reports.push(progress));
    for (let i = 0; i < 1_000; i++) feed("=".repeat(100));
    feed("\n");
    assert.equal(reports.length, 1);
    assert.equal(reports[0]!.message!.length, 160);
  });
});

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { startHttpServer } from "@pseudoclaude/testing/system";
import { fixture } from "#mcp-test/mcp-fixtures.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");
const EVERYTHING = path.join(
  root,
  "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);

/** What Node holds, counted by kind: `{ Timeout: 2, PipeWrap: 3 }`. */
function counted(resources: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of resources) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

describe("no leaks: an aborted run and a closed agent", () => {
  it("leave no request, timer, socket, pipe or process behind, so the process ends by itself", {
    timeout: 60_000,
  }, async () => {
    const http = await startHttpServer({ script: EVERYTHING, args: ["streamableHttp"] });
    const home = await mkdtemp(path.join(os.tmpdir(), "pc-leaks-"));
    try {
      const child = spawn(
        process.execPath,
        [
          path.join(here, "fixtures", "leaks", "aborted-run.js"),
          fixture("behaviours"),
          http.url("/mcp"),
        ],
        { env: { ...process.env, HOME: home }, stdio: ["ignore", "pipe", "pipe"] },
      );
      let out = "";
      let err = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
      // No process.exit in the script: a handle left open would keep it running.
      const code = await new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => {
          child.kill("SIGKILL");
          resolve(null);
        }, 20_000);
        child.once("exit", (exitCode) => {
          clearTimeout(timer);
          resolve(exitCode);
        });
      });
      assert.equal(code, 0, `the process ended by itself (exit ${code})\n${out}\n${err}`);
      const report = JSON.parse(out.trim().split("\n").at(-1)!) as {
        stopReason: string;
        calls: string[];
        before: string[];
        during: string[];
        after: string[];
      };
      assert.equal(report.stopReason, "aborted");
      assert.ok(report.calls.includes("cancelled"), JSON.stringify(report.calls));
      // The run held pipes and sockets; after close nothing of the agent's remains.
      assert.ok(report.during.length > report.before.length, JSON.stringify(report.during));
      assert.deepEqual(counted(report.after), counted(report.before));
    } finally {
      await http.stop();
      await rm(home, { recursive: true, force: true });
    }
  });
});

import assert from "node:assert/strict";
import os from "node:os";
import { describe, it } from "node:test";
import { processResult } from "../src/process/process-result.js";
import { createProcessRunner } from "../src/process/process-runner.js";

const base = {
  cwd: os.tmpdir(),
  maxOutputChars: 10_000,
  killGraceMs: 200,
};

describe("the kernel's process runner", () => {
  it("passes arguments as they are and standard input to the program", async () => {
    const runner = createProcessRunner();
    const outcome = await runner.run({
      ...base,
      file: process.execPath,
      args: [
        "-e",
        "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.stringify([process.argv.slice(1),s,process.env.PC_TEST])))",
        "a b",
        "$HOME",
      ],
      stdin: "line one\nline two",
      env: { PC_TEST: "yes" },
      signal: new AbortController().signal,
    });
    assert.equal(outcome.exitCode, 0);
    assert.deepEqual(JSON.parse(outcome.output), [["a b", "$HOME"], "line one\nline two", "yes"]);
    await runner.close();
  });

  it("does not fail when the program exits without reading its input", async () => {
    const runner = createProcessRunner();
    const outcome = await runner.run({
      ...base,
      file: process.execPath,
      args: ["-e", "process.exit(3)"],
      stdin: "x".repeat(1_000_000),
      signal: new AbortController().signal,
    });
    assert.equal(outcome.exitCode, 3);
    assert.equal(outcome.spawnError, undefined);
    const result = processResult(outcome, { noun: "Script", cwd: ".", timeoutMs: 1000 });
    assert.equal(result.ok, false);
    assert.equal(result.ok ? "" : result.error.code, "tool_error");
    assert.match(result.ok ? "" : result.error.message, /^Exit code 3\.$/);
  });

  it("ends the whole group on timeout and says so in the result", async () => {
    const runner = createProcessRunner();
    const controller = new AbortController();
    const started = runner.run({
      ...base,
      file: "/bin/sh",
      args: ["-c", "sleep 30 & sleep 30"],
      signal: controller.signal,
      deadlineMs: 150,
    });
    const outcome = await started;
    assert.equal(outcome.stopped, "deadline");
    assert.ok(outcome.killSignal, "a signal ended the group");
    const result = processResult(outcome, {
      noun: "Script",
      cwd: ".",
      timeoutMs: 150,
      fromArgument: true,
    });
    assert.equal(result.ok ? "" : result.error.code, "timeout");
    assert.match(
      result.ok ? "" : result.error.message,
      /^Script timed out after 150 ms \(its timeout_ms\)/,
    );
    await runner.close();
  });

  it("reports a program that cannot start", async () => {
    const runner = createProcessRunner();
    const outcome = await runner.run({
      ...base,
      file: "/nonexistent/program",
      args: [],
      signal: new AbortController().signal,
    });
    assert.match(outcome.spawnError ?? "", /ENOENT/);
    const result = processResult(outcome, { noun: "Script", cwd: ".", timeoutMs: 1000 });
    assert.match(result.ok ? "" : result.error.message, /^Could not start the script: /);
  });
});

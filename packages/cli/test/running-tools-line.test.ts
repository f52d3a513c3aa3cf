import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RunningToolsLine } from "../src/chat/running-tools-line.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A sink that records what a terminal (or a pipe) would have been sent. */
function sink(isTTY: boolean) {
  const writes: string[] = [];
  return { isTTY, writes, write: (chunk: string) => writes.push(chunk) };
}

describe("the running tools line", () => {
  it("draws each running call with its seconds, in place, and erases itself at the end", async () => {
    const out = sink(true);
    const line = new RunningToolsLine(out);
    line.start("a", "run_command");
    line.start("b", "read_file");
    assert.deepEqual(out.writes, [], "nothing before the first second");
    await sleep(1_100);
    assert.deepEqual(out.writes, ["\r\x1b[2K  … running run_command · 1s, read_file · 1s"]);
    line.end("a");
    line.show();
    assert.equal(out.writes.at(-1), "\r\x1b[2K  … running read_file · 1s");
    line.end("b");
    assert.equal(out.writes.at(-1), "\r\x1b[2K", "erased when nothing runs");
    await sleep(1_100);
    assert.equal(out.writes.at(-1), "\r\x1b[2K", "and the clock stopped");
  });

  it("stays off a pipe and off a question waiting for its answer", async () => {
    const pipe = sink(false);
    const piped = new RunningToolsLine(pipe);
    piped.start("a", "run_command");
    const terminal = sink(true);
    let asking = true;
    const asked = new RunningToolsLine(terminal, () => asking);
    asked.start("a", "run_command");
    await sleep(1_100);
    assert.deepEqual(pipe.writes, []);
    assert.deepEqual(terminal.writes, []);
    asking = false;
    asked.show();
    assert.equal(terminal.writes.length, 1);
    piped.close();
    asked.close();
  });
});

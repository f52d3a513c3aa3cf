// `pseudoclaude chat` in a real terminal (tmux) while tools run: a clock that ticks in place,
// each call's result on its own line, with its name, as soon as that call ends, and a duration
// that leaves out the time the person took to approve the call.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createTempWorkspace } from "@pseudoclaude/testing";
import {
  describePids,
  MARKER_VARIABLE,
  markedProcesses,
  newMarker,
  stillRunningAfter,
} from "@pseudoclaude/testing/system";
import { CLI_BIN as BIN } from "./support/cli.js";
import { shellQuote, TmuxPane } from "./support/tmux.js";

const TIMEOUT = { timeout: 60_000 };

const command = (line: string) => ({ name: "run_command", arguments: { command: line } });

/** A workspace with a script, and chat over it in tmux; no process may outlive the chat. */
async function withChat(
  turns: unknown[],
  flags: string[],
  body: (pane: TmuxPane) => Promise<void>,
): Promise<void> {
  const workspace = await createTempWorkspace("pc-chat-timing-");
  await workspace.write("script.json", JSON.stringify(turns));
  // Only the chat and what it starts carry the marker (not the pane's shell).
  const marker = newMarker();
  const line = [
    "env",
    `${MARKER_VARIABLE}=${marker}`,
    process.execPath,
    BIN,
    "chat",
    "--script",
    "script.json",
    ...flags,
  ]
    .map(shellQuote)
    .join(" ");
  const pane = new TmuxPane(
    line,
    { HOME: workspace.home, NO_COLOR: "1", TERM: "xterm-256color" },
    workspace.root,
  );
  try {
    await pane.waitFor(/Type a message, or \/help\./, "the chat to be ready");
    await body(pane);
    pane.type("/exit");
    pane.press("Enter");
    assert.equal(await pane.waitForExit(), 0);
    const left = await stillRunningAfter(markedProcesses(marker), 2_000);
    assert.deepEqual(left, [], `left running: ${describePids(left)}`);
  } finally {
    pane.close();
    await workspace.cleanup();
  }
}

describe("pseudoclaude chat while tools run", () => {
  it(
    "ticks a clock in place while a command runs and leaves the approval wait out of its time",
    TIMEOUT,
    async () => {
      await withChat(
        [{ tool_calls: [command("sleep 3; echo slept")] }, { text: "Done." }],
        [],
        async (pane) => {
          pane.type("sleep a bit");
          pane.press("Enter");
          await pane.waitFor(/Allow run_command .*\? \[y\] once/, "the approval prompt");
          // The person reads the question for two seconds before answering.
          await new Promise((resolve) => setTimeout(resolve, 2_000));
          pane.type("y");
          pane.press("Enter");
          await pane.waitFor(/… running run_command · 1s/, "the clock at one second");
          const atTwo = await pane.waitFor(/… running run_command · 2s/, "the clock at two");
          // Redrawn in place: the line that said 1s now says 2s, there is no second line.
          assert.equal(atTwo.match(/… running/g)?.length, 1, atTwo);
          const done = await pane.waitFor(/Done\./, "the answer");
          const line =
            /run_command \(waited (\d+\.\d)s for approval\) ⎿ ask, approved · (\d+) ms · ok: slept/.exec(
              done,
            );
          assert.ok(line, done);
          const [, waited, ran] = line;
          assert.ok(Number(waited) >= 1.9, `waited ${waited}s`);
          // The command slept 3 s; with the 2 s wait in it, it would say 5000 ms or more.
          assert.ok(Number(ran) >= 2_900 && Number(ran) < 4_500, `ran ${ran} ms`);
          // The clock went with the call: nothing of it is left on the screen.
          assert.doesNotMatch(done, /… running/);
        },
      );
    },
  );

  it(
    "shows each call's result with its tool name when that call ends, not after the turn",
    TIMEOUT,
    async () => {
      await withChat(
        [
          { tool_calls: [command("sleep 1; echo first"), command("sleep 3; echo second")] },
          { text: "Both ran." },
        ],
        ["--yes"],
        async (pane) => {
          pane.type("run both");
          pane.press("Enter");
          const first = await pane.waitFor(
            /run_command ⎿ ask, approved · \d+ ms · ok: first/,
            "the first result",
          );
          // The second call still runs: its result is not there, its clock soon is.
          assert.doesNotMatch(first, /ok: second/);
          assert.doesNotMatch(first, /Both ran\./);
          await pane.waitFor(
            /ok: first\n {2}… running run_command · 1s/,
            "the second call's clock under the first result",
          );
          const both = await pane.waitFor(/Both ran\./, "the answer");
          assert.match(
            both,
            /run_command ⎿ ask, approved · \d+ ms · ok: first\n {2}… 1 second\n {2}run_command ⎿ ask, approved · \d+ ms · ok: second\n/,
          );
          // --yes answered at once: no wait worth reporting.
          assert.doesNotMatch(both, /waited/);
        },
      );
    },
  );

  it(
    "times a refused call to its decision, not to the end of the calls that ran after it",
    TIMEOUT,
    async () => {
      await withChat(
        [
          { tool_calls: [command("echo never"), command("sleep 2; echo slow")] },
          { text: "One ran." },
        ],
        [],
        async (pane) => {
          pane.type("two commands");
          pane.press("Enter");
          await pane.waitFor(/Allow run_command \{"command":"echo never"\}\?/, "the first ask");
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          pane.type("n");
          pane.press("Enter");
          await pane.waitFor(/Reason for the model \(Enter for none\): $/m, "the reason prompt");
          pane.press("Enter");
          await pane.waitFor(/Allow run_command \{"command":"sleep 2; echo slow"\}\?/, "the next");
          pane.type("y");
          pane.press("Enter");
          const done = await pane.waitFor(/One ran\./, "the answer");
          // Answered at once, though a loaded machine may take a tenth of a second to type it.
          assert.match(
            done,
            /run_command(?: \(waited \d+\.\ds for approval\))? ⎿ ask, approved · \d+ ms · ok: slow/,
          );
          const refused =
            /run_command \(waited (\d+\.\d)s for approval\) ⎿ ask, rejected · (\d+) ms · denied: /.exec(
              done,
            );
          assert.ok(refused, done);
          assert.ok(Number(refused[1]) >= 0.9, `waited ${refused[1]}s`);
          // Measured to the turn's end of calls it would be 2 s and more (the other command).
          assert.ok(Number(refused[2]) < 1_000, `took ${refused[2]} ms`);
        },
      );
    },
  );

  it("streams a running command's output above its clock", TIMEOUT, async () => {
    await withChat(
      [
        { tool_calls: [command("echo compiling; sleep 2; echo linking; sleep 1; echo built")] },
        { text: "Built." },
      ],
      ["--yes"],
      async (pane) => {
        pane.type("build it");
        pane.press("Enter");
        const early = await pane.waitFor(/ {2}… 1 compiling\n/, "the first output line");
        assert.doesNotMatch(early, /ok: compiling/, "the call has not ended yet");
        await pane.waitFor(
          / {2}… 1 compiling\n {2}… running run_command · 1s/,
          "the clock under the output",
        );
        await pane.waitFor(/ {2}… 2 linking\n/, "the second output line");
        await pane.waitFor(/Built\./, "the answer");
      },
    );
  });
});

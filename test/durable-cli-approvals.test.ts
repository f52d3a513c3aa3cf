// Approvals of durable runs from the command line, on the real Restate server from npm
// (loopback, started and stopped here): a waiting run prints how to answer it and `approve`
// answers from that line; in a terminal, `run --durable` asks the question itself.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { TempWorkspace } from "@pseudoclaude/testing";
import { CLI_BIN, runCli, startCli } from "./support/cli.js";
import { type DurableCli, startDurableCli, waitFor } from "./support/durable-cli.js";
import type { RestateServer } from "./support/restate-server.js";
import { shellQuote, TmuxPane } from "./support/tmux.js";

const TIMEOUT = { timeout: 120_000 };

let cli: DurableCli;
let server: RestateServer;
let workspace: TempWorkspace;
before(async () => {
  cli = await startDurableCli();
  ({ server, workspace } = cli);
});
after(async () => {
  await cli?.stop();
});

describe("durable runs from the CLI (the real Restate server)", () => {
  it(
    "a run waiting for approval says so while it waits; approve from the streamed line lets it finish",
    TIMEOUT,
    async () => {
      const worker = await cli.writingWorker("write.json", "out/hello.txt", "hi", "Written.");
      const running = startCli(
        workspace,
        ["run", "write it", ...cli.durable(), "--session", "writer"],
        { timeoutMs: 90_000 },
      );
      const line = await waitFor("the waiting line", async () =>
        running
          .stderr()
          .match(/waiting for approval of write_file .*: pseudoclaude approve (\S+) allow\|deny/),
      );
      await assert.rejects(
        readFile(path.join(workspace.root, "out/hello.txt")),
        "nothing written yet",
      );
      const approved = await runCli(workspace, [
        "approve",
        line[1]!,
        "allow",
        "--ingress",
        server.ingress,
      ]);
      assert.equal(approved.code, 0, approved.stderr);
      const done = await running.done;
      assert.equal(done.code, 0, done.stderr + worker.output());
      assert.equal(done.stdout, "Written.\n");
      assert.match(done.stderr, /ask \(approved\): "write_file" may have side effects/);
      assert.equal(await readFile(path.join(workspace.root, "out/hello.txt"), "utf8"), "hi");
      await worker.stop();
    },
  );

  it(
    "in a terminal, run --durable asks its approvals right there and answers through the ingress (tmux)",
    TIMEOUT,
    async () => {
      const worker = await cli.writingWorker("tty.json", "out/tty.txt", "typed", "Typed.");
      const command = [
        process.execPath,
        CLI_BIN,
        "run",
        "write it",
        ...cli.durable(),
        "--session",
        "tty",
      ]
        .map(shellQuote)
        .join(" ");
      const pane = new TmuxPane(command, { HOME: workspace.home }, workspace.root);
      try {
        const screen = await pane.waitFor(
          /Allow write_file \{"path":"out\/tty\.txt","content":"typed"\}\? \[y\/N\]/,
          "the question in the terminal",
          60_000,
        );
        // Anyone else could answer too: the line says how.
        assert.match(
          screen,
          /waiting for approval of write_file .*: pseudoclaude approve sign_\S+ allow\|deny/,
        );
        await assert.rejects(
          readFile(path.join(workspace.root, "out/tty.txt")),
          "nothing written yet",
        );
        pane.type("y");
        pane.press("Enter");
        assert.equal(await pane.waitForExit(60_000), 0, pane.screen());
        assert.match(pane.screen(), /ask \(approved\): "write_file" may have side effects/);
        assert.match(pane.screen(), /^Typed\.$/m);
        assert.equal(await readFile(path.join(workspace.root, "out/tty.txt"), "utf8"), "typed");
      } finally {
        pane.close();
        await worker.stop();
      }
    },
  );
});

// `pseudoclaude chat` in a real terminal (tmux), with a real MCP server over stdio: a tool call,
// approvals answered at the prompt, Ctrl-C during a slow tool, consent at start, /exit.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import {
  describePids,
  markedProcesses,
  markerEnv,
  newMarker,
  stillRunningAfter,
} from "@pseudoclaude/testing/system";
import { CLI_BIN as BIN } from "./support/cli.js";
import { shellQuote, TmuxPane } from "./support/tmux.js";

const BEHAVIOURS = fileURLToPath(import.meta.resolve("#mcp-fixtures/behaviours.js"));
const TIMEOUT = { timeout: 60_000 };

interface Chat {
  workspace: TempWorkspace;
  pane: TmuxPane;
  serverLog(): Promise<string[]>;
}

/** A workspace with the behaviours server in a config layer, a script, and chat in tmux. */
async function withChat(
  turns: unknown[],
  body: (chat: Chat) => Promise<void>,
  options: { layer?: "user" | "project"; flags?: string[] } = {},
): Promise<void> {
  const workspace = await createTempWorkspace("pc-chat-");
  const marker = newMarker();
  const log = path.join(workspace.root, "server.log");
  await workspace.writeConfig(
    options.layer ?? "user",
    [
      "mcp_servers:",
      "  beh:",
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(BEHAVIOURS)}]`,
      "    env:",
      `      FIXTURE_LOG: ${JSON.stringify(log)}`,
      ...Object.entries(markerEnv(marker)).map(
        ([key, value]) => `      ${key}: ${JSON.stringify(value)}`,
      ),
      "",
    ].join("\n"),
  );
  await workspace.write("script.json", JSON.stringify(turns));
  const command = [
    process.execPath,
    BIN,
    "chat",
    "--script",
    "script.json",
    ...(options.flags ?? []),
  ]
    .map(shellQuote)
    .join(" ");
  const pane = new TmuxPane(
    command,
    { HOME: workspace.home, NO_COLOR: "1", TERM: "xterm-256color" },
    workspace.root,
  );
  try {
    await body({
      workspace,
      pane,
      serverLog: async () =>
        (await readFile(log, "utf8").catch(() => "")).split("\n").filter(Boolean),
    });
    const left = await stillRunningAfter(markedProcesses(marker), 2_000);
    assert.deepEqual(left, [], `left running: ${describePids(left)}`);
  } finally {
    pane.close();
    await workspace.cleanup();
  }
}

describe("pseudoclaude chat in a terminal", () => {
  it(
    "shows a tool call, asks at the prompt (once, then for the session) and exits on /exit",
    TIMEOUT,
    async () => {
      const echo = (text: string) => ({
        tool_calls: [{ name: "mcp__beh__echo", arguments: { text } }],
      });
      await withChat(
        [echo("first"), echo("second"), { text: "Both echoed." }],
        async ({ pane, serverLog }) => {
          await pane.waitFor(
            /mcp:beh is ready: \d+ tools joined \(1\/1 MCP servers ready\)/,
            "the server to join",
          );
          pane.type("echo twice please");
          pane.press("Enter");
          await pane.waitFor(
            /Allow mcp__beh__echo \{"text":"first"\}\? \[y\] once {2}\[a\] this session {2}\[n\] deny: $/m,
            "the approval prompt",
          );
          pane.type("y");
          pane.press("Enter");
          await pane.waitFor(/⎿ ask, approved · \d+ ms · ok: first/, "the first result");
          await pane.waitFor(/Allow mcp__beh__echo \{"text":"second"\}\?/, "the second prompt");
          pane.type("a");
          pane.press("Enter");
          await pane.waitFor(/Allowed for this session: mcp__beh__echo/, "the session rule");
          await pane.waitFor(
            /Both echoed\.\n\(3 model turns · input 0 · output 0 tokens\)/,
            "the answer and its usage",
          );
          assert.deepEqual(
            (await serverLog()).filter((line) => line.startsWith("call ")),
            ["call echo", "call echo"],
          );
          pane.type("/tools");
          pane.press("Enter");
          await pane.waitFor(
            /Allowed for this session: mcp__beh__echo\n/,
            "the session rule in /tools",
          );
          pane.type("/exit");
          pane.press("Enter");
          assert.equal(await pane.waitForExit(), 0);
          assert.match(pane.screen(), /Bye\./);
        },
      );
    },
  );

  it(
    "cancels a slow tool with Ctrl-C, the server sees it, and the session goes on",
    TIMEOUT,
    async () => {
      await withChat(
        [{ tool_calls: [{ name: "mcp__beh__hang", arguments: {} }] }, { text: "Still here." }],
        async ({ pane, serverLog }) => {
          await pane.waitFor(/mcp:beh is ready/, "the server to join");
          pane.type("hang for a while");
          pane.press("Enter");
          await pane.waitFor(/● mcp__beh__hang \{\}/, "the tool call to start");
          await waitUntil(
            async () => (await serverLog()).includes("call hang"),
            "the server to get the call",
          );
          pane.press("C-c");
          await pane.waitFor(
            /Cancelling this turn \(Ctrl-C\); the session goes on\./,
            "the cancel note",
          );
          await pane.waitFor(
            /⎿ ask, approved · \d+ ms · mcp_call_error: Call to "hang" on MCP server "beh" was cancelled; the server was sent notifications\/cancelled\./,
            "the cancelled result",
          );
          await pane.waitFor(/· aborted\)/, "the turn to end as aborted");
          await waitUntil(
            async () => (await serverLog()).some((line) => line.startsWith("cancelled hang")),
            "the server to see the cancellation",
          );
          pane.type("are you there?");
          pane.press("Enter");
          await pane.waitFor(/Still here\./, "the next answer");
          pane.press("C-c");
          await pane.waitFor(/Press Ctrl-C again or Ctrl-D to exit\./, "the exit hint");
          pane.press("C-d");
          assert.equal(await pane.waitForExit(), 0);
        },
        { flags: ["--yes"] },
      );
    },
  );

  it("asks once at start before the workspace's own server runs", TIMEOUT, async () => {
    await withChat(
      [{ text: "Hi." }],
      async ({ pane, serverLog }) => {
        await pane.waitFor(
          /This workspace's own files ask for more than your settings allow:\n {2}beh: /,
          "the consent question",
        );
        await pane.waitFor(/Approve them for this workspace\? \[y\/N\] $/m, "the prompt");
        assert.deepEqual(await serverLog(), [], "nothing ran before the answer");
        pane.type("y");
        pane.press("Enter");
        await pane.waitFor(/mcp:beh is ready/, "the approved server to join");
        pane.press("C-c");
        pane.press("C-c");
        assert.equal(await pane.waitForExit(), 0);
      },
      { layer: "project" },
    );
  });
});

describe("pseudoclaude chat without a terminal", () => {
  it(
    "prints no control codes, denies ask without --yes, and ends with the input",
    TIMEOUT,
    async () => {
      const workspace = await createTempWorkspace("pc-chat-pipe-");
      try {
        await workspace.write(
          "script.json",
          JSON.stringify([
            { tool_calls: [{ name: "write_file", arguments: { path: "x.txt", content: "x" } }] },
            { text: "Done." },
          ]),
        );
        const child = spawn(process.execPath, [BIN, "chat", "--script", "script.json"], {
          cwd: workspace.root,
          env: { ...process.env, HOME: workspace.home, FORCE_COLOR: "1" },
          stdio: ["pipe", "pipe", "pipe"],
        });
        let stdout = "";
        child.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
        });
        child.stdin.end("write a file\n");
        const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
        assert.equal(code, 0);
        assert.ok(!stdout.includes("\u001b"), `no escape codes in:\n${JSON.stringify(stdout)}`);
        assert.match(stdout, /⎿ ask, no_approver · \d+ ms · denied: .*no one can approve it here/);
        assert.match(stdout, /Done\./);
        await assert.rejects(
          readFile(path.join(workspace.root, "x.txt")),
          "the file was not written",
        );
      } finally {
        await workspace.cleanup();
      }
    },
  );
});

async function waitUntil(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

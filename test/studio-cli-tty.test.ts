// `pseudoclaude studio` in a real terminal (tmux): what the workspace's own files ask for is
// asked once at start, as in chat, before anything of the workspace starts; then the address
// with its token; Ctrl-C stops it with the exit code of an interrupted command. And the
// usage errors of its flags.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createTempWorkspace } from "@pseudoclaude/testing";
import { fixture } from "#mcp-test/mcp-fixtures.js";
import { CLI_BIN, runCli } from "./support/cli.js";
import { shellQuote, TmuxPane } from "./support/tmux.js";

describe("pseudoclaude studio in a terminal", () => {
  it("asks about the workspace's own server, then serves until Ctrl-C", {
    timeout: 60_000,
  }, async () => {
    const workspace = await createTempWorkspace("pc-studio-tty-");
    try {
      await workspace.write(
        ".mcp.json",
        JSON.stringify({
          mcpServers: { counter: { command: process.execPath, args: [fixture("app-server")] } },
        }),
      );
      const pane = new TmuxPane(
        [process.execPath, CLI_BIN, "studio"].map(shellQuote).join(" "),
        {
          HOME: workspace.home,
          NO_COLOR: "1",
          TERM: "xterm-256color",
          PSEUDOCLAUDE_NO_BROWSER: "1",
        },
        workspace.root,
      );
      try {
        const asked = await pane.waitFor(
          /Approve them for this workspace\? \[y\/N\] $/m,
          "the question",
        );
        assert.match(asked, /counter/);
        pane.type("n");
        pane.press("Enter");
        await pane.waitFor(/Not approved: they stay off this session\./, "the refusal");
        const screen = await pane.waitFor(
          /Studio for .*: http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}/,
          "the address",
        );
        const url = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(screen)?.[0] ?? "";
        const token = new URL(url).searchParams.get("token") ?? "";
        const base = new URL(url).origin;
        // The server the user refused is not running: the studio shows it as waiting for approval.
        const servers = (await (
          await fetch(`${base}/api/mcp/servers`, { headers: { "x-studio-token": token } })
        ).json()) as { servers: Array<{ name: string; state: string }> };
        assert.equal(servers.servers[0]?.name, "counter");
        assert.notEqual(servers.servers[0]?.state, "ready");
        pane.press("C-c");
        assert.equal(await pane.waitForExit(), 130);
        const refused = await fetch(`${base}/api/agent`).then(
          () => "answered",
          () => "refused",
        );
        assert.equal(refused, "refused", "nothing listens after Ctrl-C");
      } finally {
        pane.close();
      }
    } finally {
      await workspace.cleanup();
    }
  });

  it("says what is wrong with a flag, with exit code 2", async () => {
    const workspace = await createTempWorkspace("pc-studio-flags-");
    try {
      const port = await runCli(workspace, ["studio", "--port", "http"]);
      assert.equal(port.code, 2);
      assert.match(port.stderr, /--port must be a TCP port, 0 to 65535 \(got "http"\)/);
      const yes = await runCli(workspace, ["studio", "--yes"]);
      assert.equal(yes.code, 2, "approvals are answered in the page, not by --yes");
      assert.match(yes.stderr, /--yes/);
    } finally {
      await workspace.cleanup();
    }
  });
});

// `/login` in `pseudoclaude chat`, in a real terminal (tmux), against a local OAuth server and
// MCP server (real HTTP on 127.0.0.1): the chat says the server needs a login, `/login` shows
// the URL, the test plays the browser, the server's tools join the running session, and a
// Ctrl-C while waiting gives the login up without ending the chat.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createTempWorkspace } from "@pseudoclaude/testing";
import { CLI_BIN } from "./support/cli.js";
import { type OAuthServer, startOAuthServer } from "./support/oauth-server.js";
import { shellQuote, TmuxPane } from "./support/tmux.js";

const TIMEOUT = { timeout: 60_000 };
const URL_LINE = /^ {2}(http:\/\/127\.0\.0\.1:\d+\/authorize\S*)$/m;

async function withLoginChat(
  turns: unknown[],
  body: (pane: TmuxPane, server: OAuthServer) => Promise<void>,
): Promise<void> {
  const workspace = await createTempWorkspace("pc-chat-login-");
  const server = await startOAuthServer();
  await workspace.writeConfig("user", `mcp_servers:\n  docs:\n    url: ${server.url}\n`);
  await workspace.write("script.json", JSON.stringify(turns));
  const command = [process.execPath, CLI_BIN, "chat", "--script", "script.json", "--yes"]
    .map(shellQuote)
    .join(" ");
  const pane = new TmuxPane(
    command,
    {
      HOME: workspace.home,
      NO_COLOR: "1",
      TERM: "xterm-256color",
      PSEUDOCLAUDE_NO_BROWSER: "1",
    },
    workspace.root,
  );
  try {
    await body(pane, server);
    for (const token of server.issued)
      assert.ok(!pane.screen().includes(token), "a token reached the terminal");
  } finally {
    pane.close();
    await server.close();
    await workspace.cleanup();
  }
}

describe("pseudoclaude chat: logging in to a server that needs it", () => {
  it("offers /login, and the server's tools join the running session", TIMEOUT, async () => {
    await withLoginChat(
      [{ tool_calls: [{ name: "mcp__docs__whoami", arguments: {} }] }, { text: "Asked it." }],
      async (pane, server) => {
        await pane.waitFor(
          /mcp:docs needs you to log in: type \/login docs \(or run pseudoclaude mcp login docs\)\./,
          "the login offer",
        );
        pane.type("/login");
        pane.press("Enter");
        const screen = await pane.waitFor(URL_LINE, "the authorization URL");
        const url = URL_LINE.exec(screen)?.[1] ?? "";
        const page = await fetch(url); // the test is the browser: it follows the redirect
        assert.match(await page.text(), /Logged in\. You can close this window\./);
        await pane.waitFor(/Logged in to docs: 1 tool joined\./, "the tools to join");
        pane.type("who am I?");
        pane.press("Enter");
        await pane.waitFor(/an authorized caller/, "the tool's answer");
        await pane.waitFor(/Asked it\./, "the final answer");
        assert.deepEqual(
          server.events.filter((event) => event === "authorize" || event.startsWith("token ")),
          ["authorize", "token authorization_code"],
          "one login, one code exchanged",
        );
        pane.type("/exit");
        pane.press("Enter");
        assert.equal(await pane.waitForExit(), 0);
      },
    );
  });

  it("gives the login up on Ctrl-C and the chat goes on", TIMEOUT, async () => {
    await withLoginChat([{ text: "Still here." }], async (pane, server) => {
      await pane.waitFor(/type \/login docs/, "the login offer");
      pane.type("/login docs");
      pane.press("Enter");
      await pane.waitFor(URL_LINE, "the authorization URL");
      pane.press("C-c");
      await pane.waitFor(/Login cancelled\./, "the cancelled login");
      pane.type("/tools");
      pane.press("Enter");
      await pane.waitFor(/needs-auth/, "the server still waiting for its login");
      pane.type("hello");
      pane.press("Enter");
      await pane.waitFor(/Still here\./, "the next turn");
      assert.ok(!server.events.includes("token authorization_code"), "nothing was obtained");
      pane.type("/exit");
      pane.press("Enter");
      assert.equal(await pane.waitForExit(), 0);
    });
  });
});

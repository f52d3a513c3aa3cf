// Chat's tool search in a real terminal (tmux), with a real MCP server over stdio serving 200
// tools: /tools shows them deferred, a search the model runs is a line of its own, and /tools
// then shows what it found.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createTempWorkspace } from "@pseudoclaude/testing";
import {
  describePids,
  markedProcesses,
  markerEnv,
  newMarker,
  stillRunningAfter,
} from "@pseudoclaude/testing/system";
import { fixture } from "#mcp-test/mcp-fixtures.js";
import { CLI_BIN } from "./support/cli.js";
import { shellQuote, TmuxPane } from "./support/tmux.js";

const SCRIPT = [
  {
    tool_calls: [
      { id: "s1", name: "tool_search", arguments: { query: "create calendar event", limit: 3 } },
    ],
  },
  {
    tool_calls: [
      { id: "c1", name: "mcp__wide__calendar_create_event", arguments: { query: "standup" } },
    ],
  },
  { text: "The standup is in." },
];

describe("chat's tool search in a terminal", () => {
  it("shows deferred tools in /tools, each search as it runs, and the found tools after", {
    timeout: 90_000,
  }, async () => {
    const workspace = await createTempWorkspace("pc-tool-search-tty-");
    const marker = newMarker();
    await workspace.writeConfig(
      "user",
      [
        "mcp_servers:",
        "  wide:",
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: [${JSON.stringify(fixture("wide"))}]`,
        "    env:",
        ...Object.entries(markerEnv(marker)).map(
          ([key, value]) => `      ${key}: ${JSON.stringify(value)}`,
        ),
        "",
      ].join("\n"),
    );
    await workspace.write("script.json", JSON.stringify(SCRIPT));
    const command = [process.execPath, CLI_BIN, "chat", "--script", "script.json", "--yes"]
      .map(shellQuote)
      .join(" ");
    const pane = new TmuxPane(
      command,
      { HOME: workspace.home, NO_COLOR: "1", TERM: "xterm-256color" },
      workspace.root,
    );
    try {
      await pane.waitFor(/mcp:wide is ready: 200 tools joined/, "the server to join");
      pane.type("/tools");
      pane.press("Enter");
      await pane.waitFor(
        /^tool search: local, 200 deferred, 0 found \(~[\d,]+ of ~[\d,]+ tokens sent\)/m,
        "the tool-search line of /tools",
      );
      assert.match(pane.screen(), /^mcp__wide__calendar_create_event\s.*\sdeferred\s/m);

      pane.type("put the standup in my calendar");
      pane.press("Enter");
      const searched = await pane.waitFor(
        /⌕ searched `create calendar event` → \d+ found: mcp__wide__calendar_create_event\b/m,
        "the search line",
      );
      // The search loads its strong matches (how many is the kernel's to judge), the best first.
      const found = Number(/→ (\d+) found: mcp__wide__calendar_create_event/.exec(searched)?.[1]);
      assert.ok(found >= 1 && found <= 3, `${found} found`);
      await pane.waitFor(/The standup is in\./, "the answer");

      pane.type("/tools");
      pane.press("Enter");
      await pane.waitFor(
        new RegExp(`^tool search: local, ${200 - found} deferred, ${found} found \\(~`, "m"),
        "the found tools counted",
      );
      assert.match(pane.screen(), /^mcp__wide__calendar_create_event\s.*\sfound\s/m);

      pane.type("/exit");
      pane.press("Enter");
      assert.equal(await pane.waitForExit(), 0);
      const left = await stillRunningAfter(markedProcesses(marker), 2_000);
      assert.deepEqual(left, [], `left running: ${describePids(left)}`);
    } finally {
      pane.close();
      await workspace.cleanup();
    }
  });
});

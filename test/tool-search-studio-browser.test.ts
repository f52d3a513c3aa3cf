// Tool search in the studio's page, in a real browser (Debian's chromium through
// playwright-core) driving a real `pseudoclaude studio` with a real MCP server over stdio that
// serves 200 tools: the Tools page shows each tool's state and the summary; a scripted run's
// timeline shows the search step and, per turn, the tools offered and their tokens; the found
// tools then show as found.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import {
  describePids,
  markedProcesses,
  markerEnv,
  newMarker,
  stillRunningAfter,
} from "@pseudoclaude/testing/system";
import { fixture } from "#mcp-test/mcp-fixtures.js";
import { useBrowser } from "./support/browser.js";
import { type StudioProcess, startStudioCli } from "./support/studio-process.js";

const SCRIPT = [
  {
    tool_calls: [
      { id: "s1", name: "tool_search", arguments: { query: "list calendar events", limit: 3 } },
    ],
  },
  {
    tool_calls: [{ id: "c1", name: "mcp__wide__calendar_list_event", arguments: { limit: 5 } }],
  },
  { text: "Three events today." },
];

describe("tool search in the studio's page", () => {
  const browser = useBrowser();
  const marker = newMarker();
  let workspace: TempWorkspace;
  let studio: StudioProcess;

  before(async () => {
    workspace = await createTempWorkspace("pc-tool-search-studio-");
    await workspace.write("script.json", JSON.stringify(SCRIPT));
    // The user's own config: trusted, so the server starts without a consent question.
    await workspace.writeConfig(
      "user",
      [
        "mcp_servers:",
        "  wide:",
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: [${JSON.stringify(fixture("wide"))}]`,
        "permissions:",
        '  allow: ["mcp__wide__calendar_*"]',
        '  deny: ["mcp__wide__bank_*"]',
        "",
      ].join("\n"),
    );
    studio = await startStudioCli(workspace, ["--script", "script.json"], markerEnv(marker));
  });

  after(async () => {
    const code = await studio?.stop();
    assert.equal(code, 130, `studio stopped by Ctrl-C: ${studio?.stderr()}`);
    const left = await stillRunningAfter(markedProcesses(marker), 2_000);
    assert.deepEqual(left, [], `left running: ${describePids(left)}`);
    await workspace?.cleanup();
  });

  it("shows the tools' states, the search step and each turn's tools", async (t) => {
    const watched = await browser.openPage(t);
    const page = watched.page;
    const calendar = '[data-tool="mcp__wide__calendar_list_event"]';
    let found: string[] = [];

    await t.test("the Tools page shows the deferred tools and the summary", async () => {
      await page.goto(studio.url);
      await page.waitForSelector(`${calendar}[data-state=deferred]`);
      assert.equal(await page.textContent(`${calendar} .tool-state`), "deferred");
      assert.equal(
        await page.getAttribute('[data-tool="mcp__wide__bank_list_transfer"]', "data-state"),
        "none",
        "a denied tool has no state",
      );
      assert.equal(await page.getAttribute('[data-tool="tool_search"]', "data-state"), "loaded");
      assert.match(
        (await page.textContent("[data-testid=tool-search-summary]")) ?? "",
        /^tool search: local · 190 deferred · 0 found · ~[\d,]+ of ~[\d,]+ tokens sent.*over 20000/,
      );
      await page.click(calendar);
      assert.match(
        (await page.textContent("[data-testid=tool-state]")) ?? "",
        /^deferred: known to tool search only/,
      );
    });

    await t.test("the run's timeline shows the search and the tools of each turn", async () => {
      await page.click('a[href="#/run"]');
      await page.fill("textarea[aria-label=prompt]", "What is in my calendar?");
      await page.click("text=Send");
      await page.waitForSelector("[data-testid=run][data-state=done]");
      const search = (await page.textContent("[data-testid=tool-search]")) ?? "";
      found = await page.$$eval("[data-testid=tool-search] [data-found]", (codes) =>
        codes.map((code) => code.getAttribute("data-found") ?? ""),
      );
      // The search loads its strong matches (how many is the kernel's to judge), the best first.
      assert.equal(found[0], "mcp__wide__calendar_list_event");
      assert.equal(
        search,
        `tool search searched list calendar events → ${found.length} found: ${found.join(", ")}`,
      );

      const first = '[data-turn="1"] [data-testid=turn-tools]';
      assert.match(
        (await page.textContent(`${first} summary`)) ?? "",
        /^\d+ tools offered \(~\d+ tokens of definitions\) · 190 deferred to local search$/,
      );
      const second = '[data-turn="2"] [data-testid=turn-tools]';
      assert.match(
        (await page.textContent(`${second} summary`)) ?? "",
        new RegExp(` · ${190 - found.length} deferred to local search$`),
      );
      // The names open under the summary: the second turn sent what the search found.
      await page.click(`${second} summary`);
      const sent = await page.$$eval(`${second} .tool-names code`, (codes) =>
        codes.map((code) => code.textContent ?? ""),
      );
      for (const name of found) assert.ok(sent.includes(name), `${name} in ${sent.join()}`);
      assert.ok(!sent.includes("mcp__wide__mail_list_message"), "a deferred tool is not sent");
    });

    await t.test("the Tools page then shows the found tools as found", async () => {
      await page.click('a[href="#/tools"]');
      await page.waitForSelector(`${calendar}[data-state=found]`);
      assert.match(
        (await page.textContent("[data-testid=tool-search-summary]")) ?? "",
        new RegExp(`^tool search: local · ${190 - found.length} deferred · ${found.length} found`),
      );
    });

    assert.deepEqual(watched.consoleErrors, []);
    assert.deepEqual(watched.failedRequests, []);
  });
});

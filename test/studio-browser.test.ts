// The studio in a real browser (Debian's chromium through playwright-core), driving a real
// `pseudoclaude studio` process: a real MCP server over stdio (the MCP Apps counter fixture),
// the built-in tools, a skill, a sub-agent; a tool called through its generated form and
// approved in the page; a scripted conversation's timeline (decisions, durations, the
// sub-agent's tree, a compaction); a turn cancelled; the trace waterfall, also of a --trace
// file; a session resumed; an MCP App rendered whose own tool calls go through the policy.
// With STUDIO_SCREENSHOTS=1 the same steps write docs/images/studio/*.png.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import {
  markedProcesses,
  markerEnv,
  newMarker,
  stillRunningAfter,
} from "@pseudoclaude/testing/system";
import type { Frame, Page } from "playwright-core";
import { fixture } from "#mcp-test/mcp-fixtures.js";
import { screenshot, useBrowser } from "./support/browser.js";
import { runCli } from "./support/cli.js";
import { type StudioProcess, startStudioCli } from "./support/studio-process.js";

const CORE = pathToFileURL(
  path.resolve(import.meta.dirname, "..", "..", "packages", "core", "dist", "src", "index.js"),
).href;

const BIG = `${Array.from({ length: 500 }, (_, line) => `Line ${line} of the launch plan.`).join("\n")}\n`;

/** The studio's model: one conversation with a sub-agent and a compaction, then a slow turn. */
const SCRIPT = [
  { tool_calls: [{ id: "r1", name: "read_file", arguments: { path: "plan.txt" } }] },
  { tool_calls: [{ id: "p1", name: "agent__reader", arguments: { prompt: "read notes.md" } }] },
  { tool_calls: [{ id: "c1", name: "read_file", arguments: { path: "notes.md" } }] },
  { text: "CHILD: the notes say Friday." },
  {
    tool_calls: [
      { id: "w1", name: "write_file", arguments: { path: "answer.md", content: "Friday" } },
    ],
  },
  { text: "The launch is on Friday.", usage: { input_tokens: 900, output_tokens: 12 } },
  { tool_calls: [{ id: "s1", name: "run_command", arguments: { command: "sleep 30" } }] },
  { text: "never reached" },
];

describe("the studio in a browser", () => {
  const browser = useBrowser();
  const marker = newMarker();
  let workspace: TempWorkspace;
  let studio: StudioProcess;

  before(async () => {
    workspace = await createTempWorkspace("pc-studio-browser-");
    await workspace.write("notes.md", "the launch is on Friday\n");
    await workspace.write("plan.txt", BIG);
    await workspace.write("script.json", JSON.stringify(SCRIPT));
    await workspace.write(
      "reader.mjs",
      `import { subAgent } from ${JSON.stringify(CORE)};
export default subAgent({ name: "reader", description: "Reads files.", instructions: "Read.", tools: ["read_file"] });
`,
    );
    await workspace.write(
      ".claude/skills/release-notes/SKILL.md",
      "---\nname: release-notes\ndescription: Write release notes from the changelog.\n---\nRead CHANGELOG.md, then write the notes.\n",
    );
    // The user's own config: trusted, so the server starts without a consent question.
    await workspace.write(
      path.relative(workspace.root, path.join(workspace.home, ".PseudoClaude", "config.yaml")),
      [
        "mcp_servers:",
        "  counter:",
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: [${JSON.stringify(fixture("app-server"))}]`,
        "  beh:",
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: [${JSON.stringify(fixture("behaviours"))}]`,
        // A server whose program is not there yet: it fails, until the test writes it.
        "  late:",
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: [${JSON.stringify(path.join(workspace.root, "late-server.mjs"))}]`,
        "agent:",
        "  context_window: 9000",
        // A window this small would defer the servers' tools; this test follows them all.
        "tool_search: never",
        "permissions:",
        '  allow: ["mcp__beh__*"]',
        '  deny: ["mcp__counter__peek"]',
        "",
      ].join("\n"),
    );
    // An earlier session of this workspace, traced to a file: to resume and to open.
    await workspace.write("earlier.json", JSON.stringify([{ text: "An earlier answer." }]));
    const earlier = await runCli(workspace, [
      "run",
      "An earlier question",
      "--script",
      "earlier.json",
      "--trace",
      "earlier.jsonl",
    ]);
    assert.equal(earlier.code, 0, earlier.stderr);
    studio = await startStudioCli(
      workspace,
      ["--script", "script.json", "--plugin", "reader.mjs"],
      markerEnv(marker),
    );
  });

  after(async () => {
    const code = await studio?.stop();
    assert.equal(code, 130, `studio stopped by Ctrl-C: ${studio?.stderr()}`);
    assert.deepEqual(await stillRunningAfter(markedProcesses(marker)), [], "a process outlived it");
    await workspace?.cleanup();
  });

  it("refuses a page without the token", async (t) => {
    const watched = await browser.openPage(t);
    const response = await watched.page.goto(`${studio.base}/`);
    assert.equal(response?.status(), 401);
    assert.match(await watched.page.content(), /token_required/);
  });

  it("drives every page as a person would", async (t) => {
    const watched = await browser.openPage(t);
    const page = watched.page;
    await t.test(
      "opens on the tools: the MCP server's, the built-ins and the skill's",
      async () => {
        await page.goto(studio.url);
        assert.equal(new URL(page.url()).search, "", "the token left the address bar");
        await page.waitForSelector('[data-tool="mcp__counter__show_counter"]');
        for (const source of ["mcp:counter", "builtin", "skills"])
          assert.ok(await page.$(`[data-source="${source}"]`), `group ${source}`);
        assert.equal(
          await page.textContent('[data-tool="mcp__counter__peek"] .verdict'),
          "deny",
          "the deny rule shows on the tool",
        );
        await page.click('[data-tool="mcp__counter__increment"]');
        await page.waitForSelector("[data-testid=tool-detail]");
        await screenshot(page, "tools");
      },
    );

    await t.test(
      "calls a tool through its generated form, asks in the page, shows the result",
      async () => {
        // The form checks before sending: `by` is required.
        await page.click("button[type=submit]");
        assert.equal(await page.textContent('[data-error-for="by"]'), "Required.");
        await page.fill("#field-by", "2");
        await page.click("button[type=submit]");
        await page.waitForSelector("[data-testid=approval]");
        assert.match(
          (await page.textContent("[data-testid=approval]")) ?? "",
          /mcp__counter__increment/,
        );
        await screenshot(page, "approval");
        await page.click("text=Allow once");
        await page.waitForSelector("[data-testid=outcome] [data-testid=result]");
        assert.match((await page.textContent("[data-testid=result]")) ?? "", /Count: 2/);
        assert.match((await page.textContent("[data-testid=outcome]")) ?? "", /approved/);
      },
    );

    await t.test(
      "shows every kind of content, asks a server's question, declares MCP Apps",
      async () => {
        await page.click('[data-tool="mcp__beh__all_content"]');
        await page.click("button[type=submit]");
        await page.waitForSelector("[data-testid=result] .structured");
        for (const kind of ["text", "image", "link", "resource"])
          assert.ok(await page.$(`[data-testid=result] .block.${kind}`), `a ${kind} block`);
        assert.ok(await page.$("[data-testid=result] audio"), "an audio block");
        assert.match((await page.textContent("[data-testid=result]")) ?? "", /embedded text/);

        await page.click('[data-tool="mcp__beh__ask_user"]');
        await page.click("button[type=submit]");
        await page.waitForSelector("[data-testid=elicitation]");
        assert.match(
          (await page.textContent("[data-testid=elicitation]")) ?? "",
          /What is your name\?/,
        );
        await page.click("[data-testid=elicitation] >> text=Send");
        assert.equal(
          await page.textContent('[data-testid=elicitation] [data-error-for="name"]'),
          "Required.",
        );
        await page.fill("[data-testid=elicitation] #field-name", "Ada");
        await page.click("[data-testid=elicitation] >> text=Send");
        await page
          .locator("[data-testid=result]", { hasText: 'elicitation accept {"name":"Ada"}' })
          .waitFor();

        // The studio's agent tells servers it renders MCP Apps; `call` from the CLI does not.
        await page.click('[data-tool="mcp__beh__declared_caps"]');
        await page.click("button[type=submit]");
        await page
          .locator("[data-testid=result]", { hasText: "io.modelcontextprotocol/ui" })
          .waitFor();
        const plain = await runCli(workspace, ["call", "mcp__beh__declared_caps", "--json"]);
        assert.equal(plain.code, 0, plain.stderr);
        assert.doesNotMatch(plain.stdout, /io\.modelcontextprotocol\/ui/);
      },
    );

    await t.test("renders the MCP App and runs its tool calls through the policy", async () => {
      await page.click('[data-tool="mcp__counter__show_counter"]');
      await page.fill("#field-label", "Kitchen");
      await page.click("button[type=submit]");
      // An MCP server's read-only hint is not trusted: showing the view is asked too.
      await page.waitForSelector("[data-testid=approval]");
      await page.click("text=Allow once");
      await page.waitForSelector("[data-testid=app-frame] iframe");
      const view = await appFrame(page);
      await view.locator("#count", { hasText: "2" }).waitFor();
      // The view is sent what the tool was called with (the extension's tool-input).
      await view.locator("#input", { hasText: '{"label":"Kitchen"}' }).waitFor();
      // A side effect asked by the view is approved in the page, like the model's.
      await view.click("#inc");
      await page.waitForSelector("[data-testid=approval]");
      await page.click("text=Allow once");
      await view.locator("#status", { hasText: "3" }).waitFor();
      // peek is denied by the user's rule: the view hears so, and nothing ran.
      await view.click("#peek");
      await view.locator("#status", { hasText: /denied|deny/i }).waitFor();
      assert.match((await page.textContent("[data-testid=app-log]")) ?? "", /peek: deny/);
      await screenshot(page, "mcp-app");
    });

    await t.test("runs a scripted conversation and shows its timeline", async () => {
      await page.click('a[href="#/run"]');
      await page.fill("textarea[aria-label=prompt]", "When is the launch?");
      await page.click("text=Send");
      await page.waitForSelector("[data-testid=approval]");
      assert.match((await page.textContent("[data-testid=approval]")) ?? "", /write_file/);
      await page.click("text=Allow once");
      await page.waitForSelector("[data-testid=run][data-state=done]");
      assert.equal(await page.textContent("[data-testid=answer]"), "The launch is on Friday.");
      const verdicts = await page.$$eval(
        '.timeline > [data-call] > .call-facts [data-testid="call-verdict"]',
        (nodes) => nodes.map((node) => node.textContent),
      );
      // In order: read_file, the sub-agent, its own read_file (nested), write_file (asked).
      assert.deepEqual(verdicts, ["allow", "allow", "allow", "ask"]);
      // Every call ended, the sub-agent's and its child's too, each with its duration.
      const states = await page.$$eval("[data-call]", (nodes) =>
        nodes.map((node) => [
          node.getAttribute("data-call"),
          node.querySelector(":scope > .call-facts .state")?.textContent,
          Boolean(node.querySelector(":scope > .call-facts [data-testid=duration]")),
        ]),
      );
      assert.deepEqual(states, [
        ["r1", "ok", true],
        ["p1", "ok", true],
        ["c1", "ok", true],
        ["w1", "ok", true],
      ]);
      const tree = await page.textContent('[data-call="p1"] [data-testid=sub-agent]');
      assert.match(tree ?? "", /sub-agent reader/);
      assert.ok(
        await page.$('[data-call="p1"] [data-testid=sub-agent] [data-call="c1"]'),
        "the child's call nests",
      );
      assert.match(
        (await page.textContent("[data-testid=compaction]")) ?? "",
        /old results shortened/,
      );
      await screenshot(page, "run");
    });

    await t.test("cancels a running turn", async () => {
      await page.fill("textarea[aria-label=prompt]", "Wait for it.");
      await page.click("text=Send");
      await page.waitForSelector("[data-testid=approval]");
      await page.click("text=Allow once");
      await page.waitForSelector('[data-call="s1"] .state.running');
      await page.click("text=Cancel turn");
      await page.waitForSelector("[data-testid=run][data-state=cancelled]");
    });

    await t.test("draws the trace waterfall, and one of a --trace file", async () => {
      await page.click('a[href="#/traces"]');
      await page.waitForSelector('[data-span^="invoke_agent"]');
      // The first run's trace has the read_file call; the newest (the cancelled run) does not.
      await page.locator("[data-trace]", { hasText: "invoke_agent" }).last().click();
      await page.waitForSelector('[data-span="execute_tool read_file"]');
      await screenshot(page, "traces");
      await page.setInputFiles(
        "input[aria-label='trace file']",
        path.join(workspace.root, "earlier.jsonl"),
      );
      await page.waitForSelector("text=earlier.jsonl");
      await page.waitForSelector('[data-span^="chat"]');
    });

    await t.test("lists sessions, shows a compaction note, and resumes one", async () => {
      await page.click('a[href="#/sessions"]');
      await page.waitForSelector("[data-session]");
      const current = page.locator("[data-session]", { hasText: "current" });
      await current.click();
      await page.waitForSelector("[data-testid=compaction-note]");
      await screenshot(page, "sessions");
      await page.locator("[data-session]", { hasText: "An earlier question" }).click();
      await page.click("text=Resume here");
      await page.waitForSelector("text=This is the current session");
      assert.match((await page.textContent("[data-testid=transcript]")) ?? "", /An earlier answer/);
    });

    await t.test("shows the MCP server with its resources, and the skills", async () => {
      await page.click('a[href="#/mcp"]');
      await page.waitForSelector('[data-server="counter"] .state.ready');
      await page.waitForSelector('[data-server="late"] .state.failed');
      await workspace.write(
        "late-server.mjs",
        `console.error("late server: up on its second start");\nimport ${JSON.stringify(pathToFileURL(fixture("app-server")).href)};\n`,
      );
      await page.click('[data-server="late"] >> text=Reconnect');
      await page.waitForSelector('[data-server="late"] .state.ready');
      // Its stderr, as the server wrote it.
      await page.click('[data-server="late"] [data-testid=stderr] summary');
      assert.match(
        (await page.textContent('[data-server="late"] [data-testid=stderr]')) ?? "",
        /late server: up on its second start/,
      );
      await page.click('a[href="#/tools"]');
      await page.waitForSelector('[data-tool="mcp__late__increment"]');
      await page.click('a[href="#/mcp"]');
      await page.click("[data-testid=browse]");
      await page.click('[data-resource="ui://counter/view.html"]');
      await page.waitForSelector("[data-testid=reading]");
      assert.match((await page.textContent("[data-testid=reading]")) ?? "", /profile=mcp-app/);
      await screenshot(page, "mcp-servers");
      await page.click('a[href="#/skills"]');
      await page.waitForSelector('[data-skill="release-notes"]');
      await page.click("[data-testid=skills-index] summary");
      assert.match(
        (await page.textContent("[data-testid=skills-index]")) ?? "",
        /- release-notes: Write release notes from the changelog\./,
      );
      await page.click('[data-skill="release-notes"] >> text=Load');
      await page.waitForSelector('[data-skill="release-notes"] >> text=Read CHANGELOG.md');
      await screenshot(page, "skills");
    });
    assert.deepEqual(watched.consoleErrors, [], "no error in the page");
  });
});

/** The frame the MCP App's view runs in. */
async function appFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector("[data-testid=app-frame] iframe");
  const frame = await handle.contentFrame();
  assert.ok(frame, "the view's frame");
  await frame.waitForSelector("#inc");
  return frame;
}

// Code mode in the studio's page, in a real browser (Debian's chromium through playwright-core)
// driving a real `pseudoclaude studio --code-mode on`: a scripted run's timeline shows the
// program's source and, under it, each call the program made with its decision and outcome.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { useBrowser } from "./support/browser.js";
import { type StudioProcess, startStudioCli } from "./support/studio-process.js";

const PROGRAM = `const a = await tools.read_file({ path: "a.txt" });
const b = await tools.read_file({ path: "b.txt" });
return a.includes("TODO") || b.includes("TODO");`;

const WRITE = `await tools.write_file({ path: "out.txt", content: "x" });
return "written";`;

const SCRIPT = [
  { tool_calls: [{ id: "p1", name: "code_mode", arguments: { code: PROGRAM } }] },
  { text: "There is a TODO." },
  { tool_calls: [{ id: "p2", name: "code_mode", arguments: { code: WRITE } }] },
  { text: "Written." },
];

describe("code mode in the studio's page", () => {
  const browser = useBrowser();
  let workspace: TempWorkspace;
  let studio: StudioProcess;

  before(async () => {
    workspace = await createTempWorkspace("pc-code-mode-studio-");
    await workspace.write("script.json", JSON.stringify(SCRIPT));
    await workspace.write("a.txt", "nothing\n");
    await workspace.write("b.txt", "TODO: this\n");
    studio = await startStudioCli(workspace, ["--script", "script.json", "--code-mode", "on"]);
  });

  after(async () => {
    const code = await studio?.stop();
    assert.equal(code, 130, `studio stopped by Ctrl-C: ${studio?.stderr()}`);
    await workspace?.cleanup();
  });

  it("shows the program's source and its calls nested under it", async (t) => {
    const watched = await browser.openPage(t);
    const page = watched.page;
    await page.goto(studio.url);
    await page.click('a[href="#/run"]');
    await page.fill("textarea[aria-label=prompt]", "Any TODO?");
    await page.click("text=Send");
    await page.waitForSelector("[data-testid=run][data-state=done]");
    const program = '[data-call="p1"]';
    assert.equal(await page.textContent(`${program} [data-testid=program]`), PROGRAM);
    const inner = await page.$$eval(`${program} [data-testid=program-calls] [data-call]`, (items) =>
      items.map((item) => `${item.getAttribute("data-call")} ${item.getAttribute("data-tool")}`),
    );
    assert.deepEqual(inner, ["p1.0 read_file", "p1.1 read_file"]);
    const verdicts = await page.$$eval(
      `${program} [data-testid=program-calls] [data-testid=call-verdict]`,
      (items) => items.map((item) => item.textContent),
    );
    assert.deepEqual(verdicts, ["allow", "allow"]);
    const answer = `${program} > pre.summary:not([data-testid=program])`;
    assert.match((await page.textContent(answer)) ?? "", /^true/);

    // A side effect inside a program is asked in the page, naming the program.
    await page.fill("textarea[aria-label=prompt]", "Write it");
    await page.click("text=Send");
    await page.waitForSelector("[data-testid=approval]");
    assert.match((await page.textContent("[data-testid=approval]")) ?? "", /write_file/);
    assert.equal(
      await page.textContent("[data-testid=approval-program]"),
      " · a call of the program p2",
    );
    await page.click("text=Allow once");
    await page.waitForSelector('[data-call="p2"] [data-call="p2.0"][data-tool="write_file"]');
    await page.waitForSelector("[data-testid=run][data-state=done]");
    assert.equal(await page.textContent("[data-testid=answer]"), "Written.");
    assert.deepEqual(watched.consoleErrors, []);
    assert.deepEqual(watched.failedRequests, []);
  });
});

// MCP App servers published on npm by the ext-apps project (pinned: server-basic-vanillajs,
// server-debug and server-system-monitor 2.0.3), in the studio in Chromium, over real stdio:
// the basic view renders the server's time from its tool's result and its own "Get Server
// Time" button reaches the server through the policy; the debug server's tools for its view
// only (`debug-refresh`, `debug-log`, "Not visible to the model") are never offered to the
// model; the system monitor's view polls its own view-only tool through the policy.
import assert from "node:assert/strict";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import {
  markedProcesses,
  markerEnv,
  newMarker,
  stillRunningAfter,
} from "@pseudoclaude/testing/system";
import { appViewFrame, callFromToolsPage } from "./support/app-view-page.js";
import { useBrowser } from "./support/browser.js";
import { type StudioProcess, startStudioCli } from "./support/studio-process.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const published = (name: string) =>
  path.join(ROOT, "node_modules", "@modelcontextprotocol", name, "dist", "index.js");

/** Poll `check` until it holds (15 s at most), saying what was waited for if it never does. */
async function expectEventually(check: () => boolean | Promise<boolean>, what: string) {
  for (const started = Date.now(); Date.now() - started < 15_000; ) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`waited 15 s for ${what}`);
}

describe("published MCP App servers in the studio", () => {
  const browser = useBrowser();
  const marker = newMarker();
  let workspace: TempWorkspace;
  let studio: StudioProcess;

  before(async () => {
    workspace = await createTempWorkspace("pc-published-apps-");
    await workspace.writeConfig(
      "user",
      [
        "mcp_servers:",
        "  time:",
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: [${JSON.stringify(published("server-basic-vanillajs"))}, "--stdio"]`,
        "  debug:",
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: [${JSON.stringify(published("server-debug"))}, "--stdio"]`,
        "    env:",
        `      DEBUG_LOG_FILE: ${JSON.stringify(path.join(workspace.root, "debug.log"))}`,
        "  monitor:",
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: [${JSON.stringify(published("server-system-monitor"))}, "--stdio"]`,
        "tool_search: never",
        "permissions:",
        '  allow: ["mcp__time__*", "mcp__debug__*", "mcp__monitor__*"]',
        "",
      ].join("\n"),
    );
    // The model a view's message goes to: it answers once.
    await workspace.write(
      "script.json",
      JSON.stringify([{ text: "Hello back." }, { text: "Noted the view's context." }]),
    );
    studio = await startStudioCli(workspace, ["--script", "script.json"], markerEnv(marker));
  });

  after(async () => {
    await studio?.stop();
    assert.deepEqual(await stillRunningAfter(markedProcesses(marker)), [], "a process outlived it");
    await workspace?.cleanup();
  });

  it("keeps the debug server's view-only tools from the model", async () => {
    type Listed = { name: string; audience: string[]; offered: boolean };
    // The studio listens before its servers are up: wait until both have listed their tools.
    let tools: Listed[] = [];
    for (const started = Date.now(); Date.now() - started < 20_000; ) {
      const response = await fetch(`${studio.base}/api/tools`, {
        headers: { "x-studio-token": studio.token },
      });
      ({ tools } = (await response.json()) as { tools: Listed[] });
      const names = tools.map((tool) => tool.name);
      if (names.includes("mcp__debug__debug-log") && names.includes("mcp__time__get-time")) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of ["mcp__debug__debug-refresh", "mcp__debug__debug-log"]) {
      assert.deepEqual(byName.get(name)?.audience, ["app"], name);
      assert.equal(byName.get(name)?.offered, false, name);
    }
    assert.equal(byName.get("mcp__debug__debug-tool")?.offered, true);
    assert.equal(byName.get("mcp__time__get-time")?.offered, true);
  });

  it("renders the basic view with the server's time, and its button reaches the server", async (t) => {
    const { page, consoleErrors } = await browser.openPage(t);
    await callFromToolsPage(page, studio.url, "mcp__time__get-time");
    await page.waitForSelector("[data-testid=outcome] [data-testid=result]");
    const view = await appViewFrame(page);
    // The view shows the time from the tool's result: an ISO timestamp.
    const shown = view.locator("#server-time", { hasText: /\d{4}-\d{2}-\d{2}T/ });
    await shown.waitFor({ timeout: 15_000 });
    const first = await shown.textContent();
    await page.waitForTimeout(1_100);
    await view.click("#get-time-btn");
    // Its own call went through the policy and the server answered a later time.
    await page.waitForSelector("[data-testid=app-log]");
    await view
      .locator("#server-time", { hasText: /\d{4}-\d{2}-\d{2}T/ })
      .filter({ hasNotText: first ?? "" })
      .waitFor({ timeout: 15_000 });
    assert.match((await page.textContent("[data-testid=app-log]")) ?? "", /get-time: allow/);

    // ui/open-link: the person is shown the URL first; declined, nothing opens.
    const asked: string[] = [];
    page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await view.fill("#link-url", "https://example.com/docs");
    await view.click("#open-link-btn");
    await expectEventually(() => asked.length === 1, "the open-link question");
    assert.match(asked[0] ?? "", /asks to open:\s+https:\/\/example\.com\/docs/);
    assert.equal(page.context().pages().length, 1, "no page opened");

    // ui/message: agreed to, it becomes the conversation's next prompt, from this view.
    page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await view.fill("#message-text", "Hello from the view");
    await view.click("#send-message-btn");
    await expectEventually(() => asked.length === 2, "the message question");
    assert.match(asked[1] ?? "", /asks to send to the model:\s+Hello from the view/);
    let fromView: { prompt: string; fromApp?: string; state: string } | undefined;
    await expectEventually(async () => {
      const { runs } = (await (
        await fetch(`${studio.base}/api/runs`, { headers: { "x-studio-token": studio.token } })
      ).json()) as { runs: Array<{ prompt: string; fromApp?: string; state: string }> };
      fromView = runs.find((run) => run.fromApp === "mcp__time__get-time");
      return fromView?.state === "done";
    }, "the view's run");
    assert.equal(fromView?.prompt, "Hello from the view");

    assert.deepEqual(
      consoleErrors.filter((line) => !/Content Security Policy|favicon/.test(line)),
      [],
    );
  });

  it("lets the debug view go full screen and give the model context for the next turn", async (t) => {
    const { page } = await browser.openPage(t);
    await callFromToolsPage(page, studio.url, "mcp__debug__debug-tool");
    const view = await appViewFrame(page);
    // The view asks only once connected: it shows who its host is when it is.
    await view
      .locator("#host-info-content", { hasText: "pseudoclaude-studio" })
      .waitFor({ timeout: 15_000 });
    await view.click("#display-fullscreen-btn");
    await page.waitForSelector("[data-testid=app-frame][data-mode=fullscreen]");
    await page.click("text=Leave full screen");
    await page.waitForSelector("[data-testid=app-frame][data-mode=inline]");

    await view.fill("#context-text", "The debug view is open.");
    await view.click("#update-context-text-btn");
    await page.locator("[data-testid=app-log]", { hasText: "context for the next turn" }).waitFor();
    await page.click('a[href="#/run"]');
    await page.fill("textarea[aria-label=prompt]", "What is open?");
    await page.click("text=Send");
    await page.waitForSelector("[data-testid=run][data-state=done]");
    const shown = await page.textContent("[data-testid=app-context]");
    assert.match(shown ?? "", /mcp__debug__debug-tool: The debug view is open\./);
  });

  it("runs the system monitor's view, which polls a tool only views may call, through the policy", async (t) => {
    const { page } = await browser.openPage(t);
    await callFromToolsPage(page, studio.url, "mcp__monitor__get-system-info");
    const view = await appViewFrame(page);
    // The view shows this machine from its tool's result, then polls the view-only tool.
    await view.locator("#info-hostname", { hasText: os.hostname() }).waitFor({ timeout: 15_000 });
    await view.locator("#memory-percent", { hasText: /^\d+%$/ }).waitFor({ timeout: 15_000 });
    assert.match(
      (await page.textContent("[data-testid=app-log]")) ?? "",
      /poll-system-stats: allow/,
    );
    const { tools } = (await (
      await fetch(`${studio.base}/api/tools`, { headers: { "x-studio-token": studio.token } })
    ).json()) as { tools: Array<{ name: string; audience: string[]; offered: boolean }> };
    const poll = tools.find((tool) => tool.name === "mcp__monitor__poll-system-stats");
    assert.deepEqual([poll?.audience, poll?.offered], [["app"], false]);
  });
});

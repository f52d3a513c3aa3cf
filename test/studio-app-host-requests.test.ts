// What an MCP App view may ask of the studio beyond calls and messages, in Chromium, with the
// plugin's App fixture over real stdio: saving files (`ui/download-file`, embedded and linked,
// only once the person agreed to the names shown), sampling (refused, saying why), closing
// itself (`request-teardown`), and the host context's container size, told again when the
// frame changes.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import type { Studio } from "@pseudoclaude/studio";
import type { Frame, Page } from "playwright-core";
import { appViewFrame, callFromToolsPage } from "./support/app-view-page.js";
import { useBrowser } from "./support/browser.js";
import { type CounterStudio, startCounterStudio } from "./support/counter-studio.js";

/** Call the counter's tool from the Tools page, which shows its view. */
const showCounter = (page: Page, studio: Studio) =>
  callFromToolsPage(page, studio.url, "mcp__counter__show_counter");

/** Open the counter's view from the Tools page. */
async function counterView(page: Page, studio: Studio): Promise<Frame> {
  await showCounter(page, studio);
  const view = await appViewFrame(page);
  await view.locator("#state", { hasText: "ready" }).waitFor();
  await view.locator("#count", { hasText: "4" }).waitFor();
  return view;
}

describe("an MCP App view's requests to the studio", () => {
  const browser = useBrowser();
  let running: CounterStudio;
  let studio: Studio;

  before(async () => {
    running = await startCounterStudio({
      policy: { mode: "bypass" },
      env: { FIXTURE_COUNT_START: "4" },
    });
    studio = running.studio;
  });

  after(() => running?.close());

  it("saves a file the view carries or links once the person agrees, and nothing otherwise", async (t) => {
    const { page } = await browser.openPage(t);
    const view = await counterView(page, studio);
    const asked: string[] = [];

    page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    let saved = 0;
    page.on("download", () => saved++);
    await view.click("#save");
    await view.locator("#status[data-outcome=tool-error]", { hasText: "declined" }).waitFor();
    assert.match(asked[0] ?? "", /asks to save:\s+count\.json \(application\/json, 11 bytes\)/);

    page.once("dialog", (dialog) => void dialog.accept());
    const [embedded] = await Promise.all([page.waitForEvent("download"), view.click("#save")]);
    assert.equal(embedded.suggestedFilename(), "count.json");
    assert.equal(await readFile(await embedded.path(), "utf8"), '{"count":4}');
    await view.locator("#status[data-outcome=result]", { hasText: "download-file done" }).waitFor();

    // A link to one of the view's own server's resources: read from that server, then saved.
    page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    const [linked] = await Promise.all([page.waitForEvent("download"), view.click("#save-link")]);
    assert.equal(linked.suggestedFilename(), "count.txt");
    assert.equal(await readFile(await linked.path(), "utf8"), "Count: 4");
    assert.match(asked[1] ?? "", /count\.txt \(text\/plain, 8 bytes\)/);
    assert.equal(saved, 2, "the declined request saved nothing");
    assert.match((await page.textContent("[data-testid=app-log]")) ?? "", /saved count\.txt/);
  });

  it("refuses sampling with the reason, and closes a view that asks to close", async (t) => {
    const { page } = await browser.openPage(t);
    const view = await counterView(page, studio);
    await view.click("#sample");
    await view
      .locator("#status[data-outcome=error]", { hasText: "does not let a view ask the model" })
      .waitFor();

    await view.click("#close");
    await page.waitForSelector("[data-testid=app-frame][data-mode=closed]");
    assert.equal(await page.$("[data-testid=app-frame] iframe"), null, "the frame is gone");
    await page.click("text=Open the view again");
    const again = await appViewFrame(page);
    await again.locator("#count", { hasText: "4" }).waitFor();
  });

  it("tells the view its container, again when the frame changes, and follows the height it asks", async (t) => {
    const { page } = await browser.openPage(t);
    const view = await counterView(page, studio);
    const container = async () =>
      JSON.parse((await view.textContent("#container")) || "{}") as Record<string, number>;
    const frameWidth = () =>
      page.$eval("[data-testid=app-frame] iframe", (element) => element.clientWidth);
    await view.locator("#container", { hasText: "maxHeight" }).waitFor();
    const inline = await container();
    assert.equal(inline.maxHeight, 1200);
    assert.equal(inline.width, await frameWidth());

    await page.setViewportSize({ width: 900, height: 700 });
    const narrower = await frameWidth();
    assert.ok(narrower < inline.width!, `${narrower} < ${inline.width}`);
    await view.locator("#container", { hasText: `"width":${narrower}` }).waitFor();

    // The height a view asks for, within the page's bounds.
    const height = () =>
      page.$eval("[data-testid=app-frame] iframe", (element) => element.style.height);
    const heightBecomes = async (expected: string) => {
      for (const started = Date.now(); Date.now() - started < 10_000; ) {
        if ((await height()) === expected) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal(await height(), expected);
    };
    await view.click("#grow");
    await heightBecomes("500px");
    await view.click("#huge");
    await heightBecomes("1200px");
  });
});

describe("an MCP App view's errors and a long result in the studio", () => {
  const browser = useBrowser();

  it("shows what the view reports as an error, and folds a long structured result", async (t) => {
    const running = await startCounterStudio({
      policy: { mode: "bypass" },
      env: { FIXTURE_COUNT_START: "4", FIXTURE_ROWS: "400" },
    });
    t.after(() => running.close());
    const { page } = await browser.openPage(t);
    const view = await counterView(page, running.studio);
    // 400 rows of structured content: folded, its length said, nothing of it on the page.
    const folded = page.locator("[data-testid=outcome] [data-testid=folded]");
    assert.match((await folded.textContent()) ?? "", /structured content \(\d{4} lines, folded\)/);
    assert.equal(await page.locator("text=row 400 of the long result").count(), 0);
    await folded.locator("summary").click();
    await page.locator("text=row 400 of the long result").waitFor();

    await view.click("#fail");
    await page
      .locator("[data-testid=app-error]", { hasText: "The view reported error: the counter broke" })
      .waitFor();
  });

  it("says why a view cannot be shown instead of a blank frame", async (t) => {
    const running = await startCounterStudio({
      policy: { mode: "bypass" },
      env: { FIXTURE_VIEW_MIME: "text/plain" },
    });
    t.after(() => running.close());
    const { page } = await browser.openPage(t);
    await showCounter(page, running.studio);
    const error = page.locator("[data-testid=app-error]");
    await error.waitFor();
    assert.match((await error.textContent()) ?? "", /^The view could not be read: .*text\/plain/);
    assert.equal(await page.$("[data-testid=app-frame] iframe"), null);
  });

  it("says so when a view never starts (no ui/initialize)", async (t) => {
    // The probe page of the fixture is not an App: it never says hello.
    const running = await startCounterStudio({
      policy: { mode: "bypass" },
      env: { FIXTURE_VIEW_PROBES: "http://127.0.0.1:9/nothing" },
    });
    t.after(() => running.close());
    const { page } = await browser.openPage(t);
    await showCounter(page, running.studio);
    await page
      .locator("[data-testid=app-error]", { hasText: "The view has not started" })
      .waitFor({ timeout: 25_000 });
  });
});

// An MCP App's view beside the model's own call in a run's timeline, in Chromium: the view is
// told the arguments while the model writes them (`tool-input-partial`), then complete
// (`tool-input`), then the result; a call the person refuses is `tool-cancelled` with the
// reason. The App fixture runs over real stdio; the model is scripted, streaming its call's
// arguments slowly enough for the view to be up before they are complete.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ScriptedProvider } from "@pseudoclaude/testing";
import type { Frame, Page } from "playwright-core";
import { useBrowser } from "./support/browser.js";
import { type CounterStudio, startCounterStudio } from "./support/counter-studio.js";

const SHOW = "mcp__counter__show_counter";

/** The view beside call `id` in the timeline, once it is up. */
async function viewOf(page: Page, id: string): Promise<Frame> {
  const handle = await page.waitForSelector(`[data-call="${id}"] [data-testid=app-frame] iframe`);
  const view = await handle.contentFrame();
  assert.ok(view, `the view of ${id}`);
  await view.locator("#state", { hasText: "ready" }).waitFor();
  return view;
}

describe("an MCP App's view in a run's timeline", () => {
  const browser = useBrowser();
  let running: CounterStudio;
  const provider = new ScriptedProvider([
    {
      tool_calls: [
        {
          id: "c1",
          name: SHOW,
          arguments: { label: "Kitchen counter" },
          // Five pieces 800 ms apart: the view is up long before the last.
          stream_arguments: { piece_chars: 6, delay_ms: 800 },
        },
      ],
    },
    { tool_calls: [{ id: "c2", name: SHOW, arguments: { label: "Hall" } }] },
    { text: "Done." },
  ]);

  before(async () => {
    running = await startCounterStudio({ provider, env: { FIXTURE_COUNT_START: "7" } });
  });

  after(() => running?.close());

  it("tells the view the input as it streams, then whole, then the result; a refused call is cancelled", async (t) => {
    const { page, consoleErrors } = await browser.openPage(t);
    await page.goto(running.studio.url);
    await page.click('a[href="#/run"]');
    await page.fill("textarea[aria-label=prompt]", "Show the counters.");
    await page.click("text=Send");

    const first = await viewOf(page, "c1");
    // A string cut off mid-way is read as far as it came.
    await first.locator("#partial", { hasText: /^\{"label":"Ki/ }).waitFor();

    // An MCP server's read-only hint is not trusted: the call is asked, then allowed.
    await page.waitForSelector("[data-testid=approval]", { timeout: 15_000 });
    await page.click("text=Allow once");
    await first.locator("#input", { hasText: '{"label":"Kitchen counter"}' }).waitFor();
    await first.locator("#count", { hasText: "7" }).waitFor();
    assert.equal(await first.textContent("#cancelled"), "");
    // In the extension's order: partial input (more than once), the whole input, the result.
    assert.match(
      (await first.textContent("#heard")) ?? "",
      /^(tool-input-partial,){2,}tool-input,tool-result$/,
    );

    await page.waitForSelector("[data-testid=approval]");
    await page.click("text=Deny");
    const second = await viewOf(page, "c2");
    await second.locator("#cancelled", { hasText: /\S/ }).waitFor();
    assert.equal(await second.textContent("#input"), '{"label":"Hall"}');
    assert.equal(await second.textContent("#count"), "-", "a refused call sends no result");
    assert.equal(await second.textContent("#heard"), "tool-input,tool-cancelled");
    await page.waitForSelector("[data-testid=run][data-state=done]");

    assert.equal(provider.requests.length, 3, "three model turns");
    assert.deepEqual(
      consoleErrors.filter((line) => !/Content Security Policy|favicon/.test(line)),
      [],
    );
  });
});

// An MCP App's view as the studio's Tools page shows it: call the tool from its form, then
// find the frame its view runs in.
import assert from "node:assert/strict";
import type { Frame, Page } from "playwright-core";

/** Open the studio at `url` and call `tool` from the Tools page with its form as it is. */
export async function callFromToolsPage(page: Page, url: string, tool: string): Promise<void> {
  await page.goto(url);
  await page.click('a[href="#/tools"]');
  await page.click(`[data-tool="${tool}"]`);
  await page.click("button[type=submit]");
}

/** The frame of the App view on the page, once there is one. */
export async function appViewFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector("[data-testid=app-frame] iframe");
  const view = await handle.contentFrame();
  assert.ok(view, "the view's frame");
  return view;
}

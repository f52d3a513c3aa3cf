// The fixture's MCP App view (plugins/mcp/test/fixtures/counter-view.ts) running in headless chromium inside a
// sandboxed iframe of a minimal web host: it must complete the handshake, render the tool result
// it is pushed, and show both a relayed tool call's result and a host's refusal.
import assert from "node:assert/strict";
import { test } from "node:test";
import { COUNTER_VIEW_URI, MCP_APPS_PROTOCOL_VERSION } from "#mcp-fixtures/counter-view.js";
import { connectAppServer } from "./support/app-server-client.js";
import { useBrowser } from "./support/browser.js";
import { startTestHost } from "./support/mcp-app-test-host.js";

const browser = useBrowser();

test("the counter view shakes hands, renders its tool result and relays its calls", async (t) => {
  const connection = await connectAppServer({ FIXTURE_COUNT_START: "5" });
  t.after(() => connection.close());
  const denied = new Set<string>();
  const host = await startTestHost({
    client: connection.client,
    viewUri: COUNTER_VIEW_URI,
    tool: { name: "show_counter", arguments: {} },
    denied,
  });
  t.after(() => host.close());
  const { page, consoleErrors, failedRequests } = await browser.openPage(t);
  await page.goto(host.url);
  const view = page.frameLocator("#view");
  const status = view.locator("#status");

  await view.locator("#state", { hasText: "ready" }).waitFor({ timeout: 10_000 });
  await view.locator("#count", { hasText: "5" }).waitFor({ timeout: 5_000 });

  await view.locator("#inc").click();
  await status.and(view.locator('[data-outcome="result"]')).waitFor({ timeout: 5_000 });
  assert.equal(await status.textContent(), "Count: 6");
  assert.equal(await view.locator("#count").textContent(), "6");

  denied.add("increment");
  await view.locator("#inc").click();
  await status.and(view.locator('[data-outcome="error"]')).waitFor({ timeout: 5_000 });
  assert.equal(await status.textContent(), "Denied: increment needs approval");

  await view.locator("#peek").click();
  await status.and(view.locator('[data-outcome="result"]')).waitFor({ timeout: 5_000 });
  assert.equal(await status.textContent(), "Count: 6", "the refused call changed nothing");

  const received = (await page.evaluate("window.received")) as Array<{
    method?: string;
    params?: Record<string, unknown>;
  }>;
  assert.deepEqual(
    received.map((message) => message.method),
    ["ui/initialize", "ui/notifications/initialized", "tools/call", "tools/call", "tools/call"],
  );
  assert.deepEqual(received[0]?.params, {
    appInfo: { name: "counter-view", version: "1.0.0" },
    appCapabilities: {},
    protocolVersion: MCP_APPS_PROTOCOL_VERSION,
  });
  assert.deepEqual(received[2]?.params, { name: "increment", arguments: { by: 1 } });
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(failedRequests, []);
});

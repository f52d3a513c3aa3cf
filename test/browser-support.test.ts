// The browser helper itself: headless chromium loads a page from a local server, clicks, receives
// a sandboxed frame's postMessage (what an MCP App's view does), reports page problems, and
// leaves no process behind.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile, rm, rmdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { test } from "node:test";
import {
  markedProcesses,
  markerEnv,
  newMarker,
  stillRunningAfter,
} from "@pseudoclaude/testing/system";
import {
  launchBrowser,
  screenshot,
  screenshotDir,
  useBrowser,
  withBrowser,
} from "./support/browser.js";

// The listener is set before the frame exists, so the frame's first message cannot be missed.
// A sandbox without allow-same-origin gives the frame an opaque origin: its messages say "null".
const PAGE = `<!doctype html>
<html>
<head><meta charset="utf-8"><title>Browser smoke</title><link rel="icon" href="data:,"></head>
<body>
<button id="press">Press</button>
<p id="label">waiting</p>
<p id="from-frame">no message</p>
<script>
  document.getElementById("press").addEventListener("click", () => {
    document.getElementById("label").textContent = "pressed";
  });
  window.addEventListener("message", (event) => {
    if (event.source !== document.getElementById("frame").contentWindow) return;
    document.getElementById("from-frame").textContent = event.origin + " " + event.data.text;
  });
</script>
<iframe id="frame" sandbox="allow-scripts"
  srcdoc="<script>parent.postMessage({ text: 'hello from the frame' }, '*')</script>"></iframe>
</body>
</html>`;

/** Serve `html` at `/` (404 elsewhere) on a free port of 127.0.0.1. */
async function servePage(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.url !== "/") return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, server };
}

function closeServer(server: Server): Promise<void> {
  // Chromium may keep an idle keep-alive connection open; close() alone would wait for it.
  server.closeAllConnections();
  return new Promise((resolve, reject) =>
    server.close((error) => (error ? reject(error) : resolve())),
  );
}

const browser = useBrowser();

test("a click changes the page and a sandboxed frame's postMessage reaches the parent", async (t) => {
  const { url, server } = await servePage(PAGE);
  t.after(() => closeServer(server));
  const { page, consoleErrors, failedRequests } = await browser.openPage(t);
  await page.goto(url);

  await page.click("#press");
  await page.locator("#label", { hasText: "pressed" }).waitFor({ timeout: 5_000 });
  await page.locator("#from-frame", { hasText: "hello" }).waitFor({ timeout: 5_000 });

  assert.equal(await page.locator("#from-frame").textContent(), "null hello from the frame");
  assert.deepEqual(page.viewportSize(), { width: 1280, height: 800 });
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(failedRequests, []);
});

test("console errors, uncaught exceptions and failed requests are collected", async (t) => {
  const { url, server } = await servePage(
    `<!doctype html><link rel="icon" href="data:,"><script>console.error("shown");</script>` +
      `<img src="/missing.png"><script>throw new Error("thrown")</script>`,
  );
  t.after(() => closeServer(server));
  const watched = await browser.openPage(t);
  await watched.page.goto(url, { waitUntil: "load" });

  assert.ok(watched.consoleErrors.includes("shown"), watched.consoleErrors.join("\n"));
  assert.ok(watched.consoleErrors.includes("uncaught: thrown"), watched.consoleErrors.join("\n"));
  assert.deepEqual(watched.failedRequests, [`GET ${url}missing.png: 404`]);
});

test("withBrowser closes chromium and every process it started", async () => {
  const marker = newMarker();
  const started = await withBrowser(
    async (running) => {
      const page = await running.newPage();
      await page.setContent("<p>open</p>");
      return markedProcesses(marker);
    },
    { env: markerEnv(marker) },
  );

  assert.ok(started.length > 0, "chromium's processes carry the marker while it runs");
  assert.deepEqual(await stillRunningAfter(started, 5_000), []);
});

test("a missing chromium fails with how to install it", async (t) => {
  const before = process.env.PSEUDOCLAUDE_CHROMIUM;
  t.after(() => {
    if (before === undefined) delete process.env.PSEUDOCLAUDE_CHROMIUM;
    else process.env.PSEUDOCLAUDE_CHROMIUM = before;
  });
  process.env.PSEUDOCLAUDE_CHROMIUM = "/nonexistent/chromium";

  await assert.rejects(
    launchBrowser(),
    /No chromium at \/nonexistent\/chromium.*apt-get install -y chromium/,
  );
});

test("screenshot writes docs/images/studio/<name>.png only when STUDIO_SCREENSHOTS=1", async (t) => {
  const before = process.env.STUDIO_SCREENSHOTS;
  const folderExisted = existsSync(screenshotDir);
  const file = path.join(screenshotDir, "browser-support-check.png");
  t.after(async () => {
    if (before === undefined) delete process.env.STUDIO_SCREENSHOTS;
    else process.env.STUDIO_SCREENSHOTS = before;
    await rm(file, { force: true });
    if (!folderExisted) await rmdir(screenshotDir).catch(() => undefined);
  });
  const { page } = await browser.openPage(t);
  await page.setContent("<h1>screenshot</h1>");

  delete process.env.STUDIO_SCREENSHOTS;
  assert.equal(await screenshot(page, "browser-support-check"), undefined);
  assert.equal(existsSync(file), false);

  process.env.STUDIO_SCREENSHOTS = "1";
  assert.equal(await screenshot(page, "browser-support-check"), file);
  const png = await readFile(file);
  assert.equal(png.subarray(1, 4).toString("latin1"), "PNG");
  await assert.rejects(screenshot(page, "../escape"), /kebab-case/);
});

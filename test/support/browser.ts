// Browser tests drive Debian's chromium through playwright-core, which downloads no browser of its
// own: the machine provides the binary (see .ci/run), so a missing one is a setup error to fix,
// never a reason to skip.
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { after, type TestContext } from "node:test";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";

/** The chromium binary the tests launch: `PSEUDOCLAUDE_CHROMIUM`, else Debian's. */
export function chromiumPath(): string {
  return process.env.PSEUDOCLAUDE_CHROMIUM || "/usr/bin/chromium";
}

/** Every page gets this size, so layouts and docs screenshots do not depend on the machine. */
export const viewport = { width: 1280, height: 800 } as const;

/** What a test may add to a launch. */
export interface LaunchOptions {
  /** Extra environment for chromium and every process it starts (e.g. a marker to find them). */
  env?: Record<string, string> | undefined;
}

/** Start headless chromium; fails with how to install it when the binary is missing. */
export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!existsSync(executablePath))
    throw new Error(
      `No chromium at ${executablePath}: the browser tests need it. Install it with ` +
        "`apt-get update && apt-get install -y chromium`, or set PSEUDOCLAUDE_CHROMIUM to a " +
        "chromium binary.",
    );
  // Root (as in CI containers) cannot use chromium's sandbox; the pages are our own test pages.
  return chromium.launch({
    executablePath,
    args: ["--no-sandbox"],
    ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
  });
}

/** Run `use` with a fresh browser and close it afterwards, whatever `use` did. */
export async function withBrowser<T>(
  use: (browser: Browser) => Promise<T>,
  options: LaunchOptions = {},
): Promise<T> {
  const browser = await launchBrowser(options);
  try {
    return await use(browser);
  } finally {
    await browser.close();
  }
}

/** A page and what went wrong on it, so a test can assert that nothing did. */
export interface WatchedPage {
  page: Page;
  /** `console.error` calls and uncaught exceptions, in any frame of the page. */
  consoleErrors: string[];
  /** Requests that got no response, or a response with status 400 or more. */
  failedRequests: string[];
}

/** Opens fresh pages on one browser per test file. */
export interface BrowserSession {
  /** A page in a context of its own (no cookies or storage shared), closed when `t` ends. */
  openPage(t: TestContext): Promise<WatchedPage>;
}

/**
 * One browser for the calling test file: launched by the first `openPage`, so a missing chromium
 * fails that test with its message, and closed by node:test's `after` hook even when tests fail.
 * Call it at the top level of the file.
 */
export function useBrowser(): BrowserSession {
  let browser: Promise<Browser> | undefined;
  after(async () => {
    await (await browser?.catch(() => undefined))?.close();
  });
  return {
    async openPage(t) {
      browser ??= launchBrowser();
      const context = await (await browser).newContext({ viewport });
      t.after(() => context.close());
      return watch(await context.newPage());
    },
  };
}

function watch(page: Page): WatchedPage {
  const watched: WatchedPage = { page, consoleErrors: [], failedRequests: [] };
  page.on("console", (message) => {
    if (message.type() === "error") watched.consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => watched.consoleErrors.push(`uncaught: ${error.message}`));
  page.on("requestfailed", (request) =>
    watched.failedRequests.push(
      `${request.method()} ${request.url()}: ${request.failure()?.errorText ?? "failed"}`,
    ),
  );
  page.on("response", (response) => {
    if (response.status() >= 400)
      watched.failedRequests.push(
        `${response.request().method()} ${response.url()}: ${response.status()}`,
      );
  });
  return watched;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** Where docs screenshots go: the docs embed them from here. */
export const screenshotDir = path.join(repoRoot, "docs", "images", "studio");

/**
 * Save the page as `docs/images/studio/<name>.png` when STUDIO_SCREENSHOTS=1, so the docs'
 * pictures come from the same tests that check the pages; otherwise do nothing (ordinary test
 * runs leave the working tree alone). Returns the file written, if any.
 */
export async function screenshot(page: Page, name: string): Promise<string | undefined> {
  if (process.env.STUDIO_SCREENSHOTS !== "1") return undefined;
  // A plain name keeps every file inside the folder the docs read.
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name))
    throw new Error(`Screenshot name "${name}" must be kebab-case letters and digits`);
  await mkdir(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

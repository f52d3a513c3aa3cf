// The studio opening, in headless chromium (Debian's, driven by playwright-core, as the browser
// tests do): an agent with 50 tools whose conversation is a 200-turn session. Each load in a
// fresh browser context: the first contentful paint, the 50 tools listed (the last row on
// screen), and, from a click on the sessions list, that session's transcript down to its last
// message. The target is under 1 s for each. The load is the first-paint test's own
// (`test/support/studio-load.ts`), so both measure the same thing.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type Browser, chromium } from "playwright-core";
import { chromiumPath } from "./kernel-rows.js";

const LOADS = Number(process.env.BENCH_STUDIO_LOADS ?? 5);
const CHROMIUM = chromiumPath();

/** What this row uses of `test/support/studio-load.ts` (built to test/dist by `npm run build`). */
interface StudioLoadModule {
  startLoadedStudio(): Promise<{ studio: { url: string }; close(): Promise<void> }>;
  loadStudio(
    browser: Browser,
    url: string,
  ): Promise<{
    fcp: number;
    listed: number;
    transcript: number;
    bytes: number;
    toolRows: number;
    errors: string[];
  }>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const support = path.join(here, "..", "..", "..", "test", "dist", "support", "studio-load.js");
const { startLoadedStudio, loadStudio } = (await import(
  pathToFileURL(support).href
)) as StudioLoadModule;

if (!existsSync(CHROMIUM))
  throw new Error(
    `No chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set PSEUDOCLAUDE_CHROMIUM.`,
  );

const loaded = await startLoadedStudio();
// Root (as in CI containers) cannot use chromium's sandbox; the page is our own.
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
const loads: Awaited<ReturnType<StudioLoadModule["loadStudio"]>>[] = [];
try {
  for (let load = 0; load < LOADS; load++) {
    const result = await loadStudio(browser, loaded.studio.url);
    if (result.errors.length > 0)
      throw new Error(`the studio page reported: ${result.errors.join("; ")}`);
    if (result.toolRows !== 50) throw new Error(`${result.toolRows} tool rows, expected 50`);
    loads.push(result);
  }
} finally {
  await browser.close();
  await loaded.close();
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
console.log(
  JSON.stringify({
    loads: LOADS,
    first_contentful_paint_ms: Math.round(median(loads.map((load) => load.fcp))),
    tools_listed_ms: Math.round(median(loads.map((load) => load.listed))),
    transcript_200_turns_ms: Math.round(median(loads.map((load) => load.transcript))),
    page_kib: Number(((loads[0]?.bytes ?? 0) / 1024).toFixed(1)),
    target_ms: 1000,
  }),
);

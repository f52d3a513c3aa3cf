import { readFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * The page's files, built into the package (`dist/ui`) at build time: nothing from a CDN. Found
 * from the package's root, by its name: this module may run from dist/src or from dist/bundle.
 */
const UI_FOLDER = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@pseudoclaude/studio/package.json")),
  "dist",
  "ui",
);

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/**
 * The page may talk to the studio only, show images and audio from itself or `data:` (a tool's
 * icon, a result's content), and frame only the studio's own app views; nothing may frame it.
 */
export const PAGE_CSP = [
  "default-src 'self'",
  "img-src 'self' data:",
  "media-src 'self' data:",
  "style-src 'self'",
  "script-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Serve one file of the page; false when there is no such file. */
export async function sendUiFile(response: ServerResponse, pathname: string): Promise<boolean> {
  const relative = pathname === "/" ? "index.html" : pathname.replace(/^\/assets\//, "");
  // Only plain names: no folders, so no way out of the UI folder.
  if (!/^[\w.-]+$/.test(relative) || relative.startsWith(".")) return false;
  const type = TYPES[path.extname(relative)];
  if (!type) return false;
  let body: Buffer;
  try {
    body = await readFile(path.join(UI_FOLDER, relative));
  } catch {
    if (relative !== "index.html") return false;
    body = Buffer.from(MISSING_UI_PAGE);
  }
  response.writeHead(200, {
    "content-type": type,
    "cache-control": "no-store",
    "content-security-policy": PAGE_CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  });
  response.end(body);
  return true;
}

const MISSING_UI_PAGE = `<!doctype html><meta charset="utf-8"><title>PseudoClaude studio</title>
<p>The studio's page was not built: run <code>npm run build</code> in the repository (it builds
<code>packages/studio/dist/ui</code>). The API works: see docs/studio-api.md.</p>`;

import { readFileSync } from "node:fs";

/** This package's version, read from its package.json so it cannot drift from the release. */
export function cliVersion(): string {
  // dist/src/version.js -> package root; package.json always ships with the package.
  const file = new URL("../../package.json", import.meta.url);
  const manifest = JSON.parse(readFileSync(file, "utf8")) as { version?: unknown };
  return typeof manifest.version === "string" ? manifest.version : "unknown";
}

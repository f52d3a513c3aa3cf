import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/** This package's version, read from its package.json so it cannot drift from the release. */
export function cliVersion(): string {
  // The package's own package.json, by its name: this module may run from dist/src or from a
  // chunk of dist/bundle, at different depths below it.
  const file = createRequire(import.meta.url).resolve("@pseudoclaude/cli/package.json");
  const manifest = JSON.parse(readFileSync(file, "utf8")) as { version?: unknown };
  return typeof manifest.version === "string" ? manifest.version : "unknown";
}

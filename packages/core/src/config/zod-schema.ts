import { createRequire } from "node:module";
import type * as Zod from "zod";

/** The `zod` namespace, as `import * as z from "zod"` gives it. */
export type ZodModule = typeof Zod;

let zod: ZodModule | undefined;

/**
 * Load zod, once, as the ES module the MCP SDK and most callers import too. Importing core or
 * a plugin does not load it (its 95 modules were 40% of what importing core and the MCP
 * plugin cost); `createAgent` and the CLI await this before they read config, so the config
 * schemas are built from that one copy.
 */
export async function loadZod(): Promise<ZodModule> {
  zod ??= (await import("zod")) as ZodModule;
  return zod;
}

/**
 * A config schema built on first use, from the zod `loadZod` loaded. Called before
 * `loadZod` (a plugin's function used on its own, outside an agent), it takes zod's CommonJS
 * build instead, synchronously: the same validation, at the price of a second copy of zod in
 * memory should the ES build load later.
 */
export function zodSchema<T>(build: (z: ZodModule) => T): () => T {
  let schema: T | undefined;
  return () => {
    schema ??= build(zodNow());
    return schema;
  };
}

/** zod now: the loaded copy, or (before `loadZod`) its CommonJS build. */
export function zodNow(): ZodModule {
  zod ??= createRequire(import.meta.url)("zod") as ZodModule;
  return zod;
}

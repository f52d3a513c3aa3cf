import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ServerSpec } from "./contender.js";
import { startListening } from "./listening-process.js";

const here = path.dirname(fileURLToPath(import.meta.url));

/** The protocol era a row's echo server speaks. */
export type Era = "2025-11-25" | "2026-07-28";

/** Each era's echo server: the 1.x SDK's (2025-11-25), the v2 package's, 2026-only. */
const ECHO: Record<Era, string> = {
  "2025-11-25": path.join(here, "echo-server.js"),
  "2026-07-28": path.join(here, "echo-server-2026.js"),
};

/**
 * Echo server processes running now, one `ps` line each (pid first): every one on the
 * machine, or only the children of `parent`.
 */
export function runningEchoServers(parent?: number): string[] {
  const scope = parent === undefined ? ["-e"] : ["--ppid", String(parent)];
  let listing = "";
  try {
    listing = execFileSync("ps", [...scope, "-o", "pid=,args="], { encoding: "utf8" });
  } catch {
    // ps exits 1 when it lists nothing.
  }
  const scripts = Object.values(ECHO);
  return listing.split("\n").filter((line) => scripts.some((script) => line.includes(script)));
}

export interface EchoOptions {
  /** Which era's server (default 2025-11-25, the server every row had before 2026-07-28). */
  era?: Era | undefined;
  initDelayMs?: number | undefined;
  fillerTools?: number | undefined;
  /** Each filler with a schema of its own instead of one schema for all (`echoTools`). */
  distinctSchemas?: boolean | undefined;
  stderrMb?: number | undefined;
}

function env(options: EchoOptions): Record<string, string> {
  return {
    BENCH_INIT_DELAY_MS: String(options.initDelayMs ?? 0),
    BENCH_FILLER_TOOLS: String(options.fillerTools ?? 0),
    BENCH_STDERR_MB: String(options.stderrMb ?? 0),
    ...(options.distinctSchemas ? { BENCH_DISTINCT_SCHEMAS: "1" } : {}),
  };
}

function script(options: EchoOptions): string {
  return ECHO[options.era ?? "2025-11-25"];
}

/** A stdio echo server as every contender's config names it (each contender spawns its own). */
export function stdioEcho(name: string, options: EchoOptions = {}): ServerSpec {
  return {
    name,
    transport: "stdio",
    command: process.execPath,
    args: [script(options)],
    env: env(options),
    era: options.era ?? "2025-11-25",
  };
}

/** A Streamable HTTP echo server, started here; `stop` ends it. */
export async function httpEcho(
  name: string,
  options: EchoOptions = {},
): Promise<{ spec: ServerSpec; stop(): Promise<void> }> {
  const server = await startListening(
    script(options),
    { ...process.env, ...env(options), BENCH_HTTP: "1" },
    "echo server",
  );
  return {
    spec: {
      name,
      transport: "http",
      url: `http://127.0.0.1:${server.port}/mcp`,
      era: options.era ?? "2025-11-25",
    },
    stop: server.stop,
  };
}

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ServerSpec } from "./contender.js";

const ECHO = path.join(path.dirname(fileURLToPath(import.meta.url)), "echo-server.js");

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
  return listing.split("\n").filter((line) => line.includes(ECHO));
}

export interface EchoOptions {
  initDelayMs?: number;
  fillerTools?: number;
  stderrMb?: number;
}

function env(options: EchoOptions): Record<string, string> {
  return {
    BENCH_INIT_DELAY_MS: String(options.initDelayMs ?? 0),
    BENCH_FILLER_TOOLS: String(options.fillerTools ?? 0),
    BENCH_STDERR_MB: String(options.stderrMb ?? 0),
  };
}

/** A stdio echo server as every contender's config names it (each contender spawns its own). */
export function stdioEcho(name: string, options: EchoOptions = {}): ServerSpec {
  return { name, transport: "stdio", command: process.execPath, args: [ECHO], env: env(options) };
}

/** A Streamable HTTP echo server, started here; `stop` ends it. */
export async function httpEcho(
  name: string,
  options: EchoOptions = {},
): Promise<{ spec: ServerSpec; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [ECHO], {
    env: { ...process.env, ...env(options), BENCH_HTTP: "1", PORT: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let seen = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening (\d+)/.exec(seen);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) =>
      reject(new Error(`echo server exited (${code}) before listening`)),
    );
  });
  return {
    spec: { name, transport: "http", url: `http://127.0.0.1:${port}/mcp` },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ServerSpec } from "../contender.js";
import type { ToolSet } from "./tool-set.js";

const here = path.dirname(fileURLToPath(import.meta.url));

/** The replay server's script, the one the token row's servers run. */
export const REPLAY_SERVER = path.join(here, "replay-server.js");

/** A stdio server spec replaying one recorded tool set (each contender spawns its own). */
export function replaySpec(file: string, set: ToolSet): ServerSpec {
  return {
    name: set.server,
    transport: "stdio",
    command: process.execPath,
    args: [REPLAY_SERVER, file],
    env: {},
    era: "2025-11-25",
  };
}

/**
 * Processes running one of `scripts` now, one `ps` line each (pid first): every one on the
 * machine, or only the children of `parent`.
 */
export function runningScripts(scripts: readonly string[], parent?: number): string[] {
  const scope = parent === undefined ? ["-e"] : ["--ppid", String(parent)];
  let listing = "";
  try {
    listing = execFileSync("ps", [...scope, "-o", "pid=,args="], { encoding: "utf8" });
  } catch {
    // ps exits 1 when it lists nothing.
  }
  return listing.split("\n").filter((line) => scripts.some((script) => line.includes(script)));
}

/** Replay servers running now: a contender that leaves one behind leaks children. */
export function runningReplayServers(parent?: number): string[] {
  return runningScripts([REPLAY_SERVER], parent);
}

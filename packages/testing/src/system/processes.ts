// Process checks for end-to-end tests: find every process a test started (descendants
// included) and prove that none is left once the agent or the CLI has closed. Linux /proc.
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

/**
 * Put `{ [MARKER_VARIABLE]: marker }` in a server's `env`: the server and everything it
 * starts inherit it, so a wrapper's children and grandchildren are found too.
 */
export const MARKER_VARIABLE = "PSEUDOCLAUDE_E2E_MARKER";

/** A fresh marker value, unique to one test. */
export function newMarker(): string {
  return randomUUID();
}

/** The marker as a server `env` entry. */
export function markerEnv(marker: string): Record<string, string> {
  return { [MARKER_VARIABLE]: marker };
}

/** Pids of running (not zombie) processes whose environment carries the marker. */
export function markedProcesses(marker: string): number[] {
  const wanted = `${MARKER_VARIABLE}=${marker}`;
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${entry}/environ`, "latin1");
    } catch {
      continue; // Gone meanwhile, or not ours.
    }
    if (environ.split("\0").includes(wanted) && isRunning(Number(entry))) pids.push(Number(entry));
  }
  return pids.sort((a, b) => a - b);
}

/**
 * Whether the process exists and is not a zombie. PID 1 here reaps orphans slowly, so a
 * dead grandchild can linger as a zombie: that counts as gone. Read from `/proc`, so any
 * user's process can be asked about, and nothing is signalled.
 */
export function isRunning(pid: number): boolean {
  const stat = readStat(pid);
  return stat !== undefined && stat.state !== "Z" && stat.state !== "X";
}

/** Parent pid of a process, if it still exists. */
export function parentOf(pid: number): number | undefined {
  return readStat(pid)?.ppid;
}

/** Command line of a process, for assertion messages. */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "<gone>";
  }
}

/** `pid (command line)` for every pid, for assertion messages. */
export function describePids(pids: readonly number[]): string {
  return pids.map((pid) => `${pid} (${commandLine(pid)})`).join(", ") || "none";
}

/**
 * The pids still running after waiting up to `ms` for all to end. A SIGKILLed process needs
 * a moment before the kernel marks it dead, so "gone right now" would be a race.
 */
export async function stillRunningAfter(pids: readonly number[], ms = 1_000): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const running = pids.filter(isRunning);
    if (running.length === 0 || Date.now() >= deadline) return running;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function readStat(pid: number): { state: string; ppid: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid ...": comm may contain spaces and parentheses, so cut at the last ")".
  const [state = "", ppid = ""] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { state, ppid: Number(ppid) };
}

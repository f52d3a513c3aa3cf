// Child processes (commands, stdio MCP servers) run as leaders of their own process group, so
// one signal reaches everything they started: pipelines, background jobs, the grandchildren of
// an `npx` or `sh -c` wrapper. Shared by every plugin that starts processes.
import { readdirSync, readFileSync } from "node:fs";

/** Signal a whole group; false when no process of the group is left. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a process of the group is still running. A member that has exited but not been
 * reaped yet (a zombie, common for orphans when PID 1 reaps slowly) still answers signals, so
 * on Linux `/proc` decides: zombies count as gone, and nothing waits for them.
 */
export function groupAlive(pid: number): boolean {
  if (!signalGroup(pid, 0)) return false;
  return process.platform !== "linux" || hasRunningMember(pid);
}

function hasRunningMember(group: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return true; // Cannot tell: assume it runs, so it gets signalled.
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // Gone meanwhile.
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === group && state !== "Z" && state !== "X") return true;
  }
  return false;
}

/**
 * Resolve once the group is gone (and `settled()` holds), or after `ms` with false.
 * `settled` lets a caller also wait for what it owns, e.g. its direct child being reaped.
 */
export async function waitForGroupEnd(
  pid: number,
  ms: number,
  settled: () => boolean = () => true,
): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupAlive(pid) || !settled()) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/**
 * End a group politely, then surely: SIGTERM, up to `graceMs` for it to go (and `settled()`
 * to hold), then SIGKILL to whatever of it is left. Returns the last signal sent, or undefined
 * when the group was already gone. The one place a process group is ended: every plugin that
 * starts processes ends them here.
 */
export async function terminateGroup(
  pid: number,
  graceMs: number,
  settled: () => boolean = () => true,
): Promise<"SIGTERM" | "SIGKILL" | undefined> {
  if (!signalGroup(pid, "SIGTERM")) return undefined;
  if (await waitForGroupEnd(pid, graceMs, settled)) return "SIGTERM";
  if (!groupAlive(pid)) return "SIGTERM";
  signalGroup(pid, "SIGKILL");
  return "SIGKILL";
}

const live = new Set<number>();
let exitHooked = false;

/**
 * Remember a running group until it ends. If this process exits while one is running (the CLI
 * interrupted, a test failing), the group is killed on the way out rather than left behind.
 */
export function trackGroup(pid: number): void {
  live.add(pid);
  if (exitHooked) return;
  exitHooked = true;
  process.once("exit", () => {
    for (const group of live) signalGroup(group, "SIGKILL");
  });
}

export function untrackGroup(pid: number): void {
  live.delete(pid);
}

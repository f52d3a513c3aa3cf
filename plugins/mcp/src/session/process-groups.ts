import { readdirSync, readFileSync } from "node:fs";

/**
 * Every stdio server runs in its own process group, so closing it also ends what it started
 * (an `npx` or `sh -c` wrapper's children). If this process exits without closing them, the
 * groups are killed on the way out so nothing is left behind.
 */
const live = new Set<number>();
let hooked = false;

export function trackGroup(pid: number): void {
  live.add(pid);
  if (!hooked) {
    hooked = true;
    process.once("exit", () => {
      for (const group of live) signalGroup(group, "SIGKILL");
    });
  }
}

export function untrackGroup(pid: number): void {
  live.delete(pid);
}

/** Signal the whole group; false when it no longer exists. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether any member of the group still runs. Signal 0 succeeds for zombies too (they wait for
 * init to reap them, which can be slow), so on Linux the members' states are read from /proc.
 */
export function groupAlive(pid: number): boolean {
  if (!signalGroup(pid, 0)) return false;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp ...": comm may contain spaces, so parse after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pid && fields[0] !== "Z") return true;
  }
  return false;
}

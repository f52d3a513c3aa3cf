// Finding the processes a test started, through an environment marker they all inherit
// (Linux /proc), so "nothing is left behind" can be checked for grandchildren too.
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

export const MARKER_VARIABLE = "BUILTIN_TOOLS_TEST_MARKER";

export function newMarker(): string {
  return randomUUID();
}

/** Pids of live (not zombie) processes whose environment carries the marker. */
export function markedProcesses(marker: string): number[] {
  const wanted = `${MARKER_VARIABLE}=${marker}`;
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, "latin1");
      if (environ.split("\0").includes(wanted) && isLive(entry)) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

function isLive(pid: string): boolean {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
  return state !== "Z" && state !== "X";
}

/** Poll until `check` holds or `ms` pass; returns whether it held. A hang guard, not a timing test. */
export async function eventually(check: () => boolean, ms = 5_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

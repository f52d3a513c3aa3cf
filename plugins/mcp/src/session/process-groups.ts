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

export function groupAlive(pid: number): boolean {
  return signalGroup(pid, 0);
}

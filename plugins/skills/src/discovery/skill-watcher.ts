import { existsSync, type FSWatcher, watch } from "node:fs";
import path from "node:path";

/**
 * Follows the skill roots while the agent lives. An existing root is watched recursively; a
 * missing one through its nearest existing parent (not recursively), so creating
 * `.claude/skills` later is noticed too. Saving a file fires several events (an editor's
 * temporary file and rename), so changes are debounced into one rescan. `sync` is called
 * after each rescan, since roots appear and disappear.
 */
export class SkillWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly roots: () => readonly string[],
    private readonly onChange: () => void,
    private readonly debounceMs = 150,
  ) {}

  /** Watch what should be watched now, and stop watching what should not. */
  sync(): void {
    if (this.closed) return;
    const wanted = new Map<string, boolean>();
    for (const root of this.roots()) {
      if (existsSync(root)) wanted.set(`r:${root}`, true);
      else {
        const parent = nearestExisting(root);
        if (parent) wanted.set(`p:${parent}`, false);
      }
    }
    for (const [key, watcher] of this.watchers) {
      if (wanted.has(key)) continue;
      watcher.close();
      this.watchers.delete(key);
    }
    for (const [key, recursive] of wanted) {
      if (this.watchers.has(key)) continue;
      try {
        const watcher = watch(key.slice(2), { recursive }, () => this.changed());
        // A watched folder that is removed errors on some platforms: rescan and rewatch.
        watcher.on("error", () => {
          watcher.close();
          this.watchers.delete(key);
          this.changed();
        });
        this.watchers.set(key, watcher);
      } catch {
        // Gone between the check and the watch: the next sync tries again.
      }
    }
  }

  /** How many folders are watched now (for tests and status). */
  get size(): number {
    return this.watchers.size;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private changed(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (!this.closed) this.onChange();
    }, this.debounceMs);
  }
}

function nearestExisting(dir: string): string | undefined {
  let current = path.dirname(dir);
  for (;;) {
    if (existsSync(current)) return current;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

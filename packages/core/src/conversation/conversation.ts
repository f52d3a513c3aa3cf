import type { Message } from "../contracts/message.js";

/**
 * The ordered messages of one agent, and the tools tool search found in them. Messages are
 * only appended (events and logs stay truthful), or replaced all at once: dropped to start
 * over, or swapped for a compacted or a resumed history. `generation` counts those
 * replacements, so a session log knows when what it wrote no longer leads the conversation.
 * Found tools stay loaded for the rest of the conversation: a compaction keeps them, a clear
 * forgets them, a resumed session brings its own.
 */
export class Conversation {
  private readonly items: Message[] = [];
  private replaced = 0;
  private readonly foundTools = new Set<string>();
  private foundChanges = 0;

  constructor(initial: readonly Message[] = [], found: readonly string[] = []) {
    this.items.push(...initial);
    for (const name of found) this.foundTools.add(name);
  }

  append(...messages: Message[]): void {
    this.items.push(...messages);
  }

  /** Start over with no messages and no found tools (a chat's `/clear`). */
  clear(): void {
    this.replace([], []);
  }

  /**
   * Put `messages` in place of the whole conversation: a compaction (found tools kept), or a
   * resumed session (with the tools it had found).
   */
  replace(messages: readonly Message[], found?: readonly string[]): void {
    this.items.length = 0;
    this.items.push(...messages);
    this.replaced += 1;
    if (found) {
      this.foundTools.clear();
      for (const name of found) this.foundTools.add(name);
      this.foundChanges += 1;
    }
  }

  /** Tools found by search, in the order found; they are sent from then on. */
  get found(): readonly string[] {
    return [...this.foundTools];
  }

  /** Bumped whenever the found tools change: an offer's cache compares it. */
  get foundVersion(): number {
    return this.foundChanges;
  }

  /** Add found tools; returns the ones that were not found before. */
  addFound(names: readonly string[]): string[] {
    const added = names.filter((name) => !this.foundTools.has(name));
    for (const name of added) this.foundTools.add(name);
    if (added.length > 0) this.foundChanges += 1;
    return added;
  }

  /** How many times the conversation was replaced (cleared included). */
  get generation(): number {
    return this.replaced;
  }

  get messages(): readonly Message[] {
    return this.items;
  }

  get length(): number {
    return this.items.length;
  }
}

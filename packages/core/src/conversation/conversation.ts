import type { Message } from "./message.js";

/**
 * The ordered messages of one agent. Messages are only appended (events and logs stay
 * truthful), or replaced all at once: dropped to start over, or swapped for a compacted or a
 * resumed history. `generation` counts those replacements, so a session log knows when what it
 * wrote no longer leads the conversation.
 */
export class Conversation {
  private readonly items: Message[] = [];
  private replaced = 0;

  constructor(initial: readonly Message[] = []) {
    this.items.push(...initial);
  }

  append(...messages: Message[]): void {
    this.items.push(...messages);
  }

  /** Start over with no messages (a chat's `/clear`); events already emitted are unchanged. */
  clear(): void {
    this.replace([]);
  }

  /** Put `messages` in place of the whole conversation (a compaction, a resumed session). */
  replace(messages: readonly Message[]): void {
    this.items.length = 0;
    this.items.push(...messages);
    this.replaced += 1;
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

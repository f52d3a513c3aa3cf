import type { Message } from "./message.js";

/**
 * The ordered messages of one agent. Messages are only appended (events and logs stay
 * truthful), or all dropped at once to start over.
 */
export class Conversation {
  private readonly items: Message[] = [];

  constructor(initial: readonly Message[] = []) {
    this.items.push(...initial);
  }

  append(...messages: Message[]): void {
    this.items.push(...messages);
  }

  /** Start over with no messages (a chat's `/clear`); events already emitted are unchanged. */
  clear(): void {
    this.items.length = 0;
  }

  get messages(): readonly Message[] {
    return this.items;
  }

  get length(): number {
    return this.items.length;
  }
}

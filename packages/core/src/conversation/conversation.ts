import type { Message } from "./message.js";

/** The ordered messages of one agent; append-only so events and logs stay truthful. */
export class Conversation {
  private readonly items: Message[] = [];

  constructor(initial: readonly Message[] = []) {
    this.items.push(...initial);
  }

  append(...messages: Message[]): void {
    this.items.push(...messages);
  }

  get messages(): readonly Message[] {
    return this.items;
  }

  get length(): number {
    return this.items.length;
  }
}

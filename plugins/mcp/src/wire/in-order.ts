import type { JSONRPCMessage } from "@modelcontextprotocol/client";

/**
 * A stream's messages handed on in order, each after the handlers of a notification before it
 * have run: the client runs a notification's handler a tick later but settles an answer at
 * once, so the last progress of a call, sent just before its result, would otherwise reach a
 * call already finished (and be dropped). Only what follows a notification waits.
 */
export class InOrder {
  private waiting: JSONRPCMessage[] | undefined;

  constructor(private readonly deliver: (message: JSONRPCMessage) => void) {}

  push(message: JSONRPCMessage): void {
    if (this.waiting) this.waiting.push(message);
    else this.hand(message);
  }

  /** Hand `message` on; a notification starts (and returns) the queue of what comes after. */
  private hand(message: JSONRPCMessage): JSONRPCMessage[] | undefined {
    this.deliver(message);
    const { method, id } = message as { method?: unknown; id?: unknown };
    if (method === undefined || id !== undefined) return undefined;
    const waiting: JSONRPCMessage[] = [];
    this.waiting = waiting;
    setImmediate(() => this.flush());
    return waiting;
  }

  private flush(): void {
    const waiting = this.waiting ?? [];
    this.waiting = undefined;
    for (let index = 0; index < waiting.length; index++) {
      const queue = this.hand(waiting[index]!);
      if (queue) {
        // A notification again: the rest waits behind it, in order.
        queue.push(...waiting.slice(index + 1));
        return;
      }
    }
  }
}

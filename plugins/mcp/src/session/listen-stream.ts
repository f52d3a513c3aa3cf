import type { Client, SubscriptionFilter } from "@modelcontextprotocol/client";
import { NO_SDK_TIMEOUT, withRequestSignal } from "./client-options.js";

/** What a `subscriptions/listen` asks for (2026-07-28). */
type ListenFilter = SubscriptionFilter;

/**
 * A 2026 session's one `subscriptions/listen`: the list_changed notices the server says it
 * sends, and `notifications/resources/updated` for the resources subscribed to. A change of
 * subscriptions opens a new listen with the new filter before the old one closes, so no update
 * falls between them; nothing is open while there is nothing to hear.
 */
export class ListenStream {
  private open: { close(): Promise<void> | void } | undefined;
  private readonly watched = new Set<string>();

  constructor(
    private readonly client: Client,
    /** The lists whose changes the server announces (its capabilities' `listChanged`). */
    private readonly lists: Omit<ListenFilter, "resourceSubscriptions">,
  ) {}

  /** Start hearing what there is to hear (at connect, and again after each change). */
  async listen(signal: AbortSignal): Promise<void> {
    const filter: ListenFilter = {
      ...this.lists,
      ...(this.watched.size > 0 ? { resourceSubscriptions: [...this.watched] } : {}),
    };
    const previous = this.open;
    this.open =
      Object.keys(filter).length === 0
        ? undefined
        : await withRequestSignal(signal, (requestSignal) =>
            this.client.listen(filter, { signal: requestSignal, timeout: NO_SDK_TIMEOUT }),
          );
    await Promise.resolve(previous?.close()).catch(() => undefined);
  }

  /** Hear of `uri`'s updates from now on. */
  async watch(uri: string, signal: AbortSignal): Promise<void> {
    if (this.watched.has(uri)) return;
    this.watched.add(uri);
    try {
      await this.listen(signal);
    } catch (error) {
      this.watched.delete(uri);
      throw error;
    }
  }

  /** Hear no more of `uri`. */
  async unwatch(uri: string, signal: AbortSignal): Promise<void> {
    if (!this.watched.delete(uri)) return;
    await this.listen(signal);
  }

  async close(): Promise<void> {
    const open = this.open;
    this.open = undefined;
    await Promise.resolve(open?.close()).catch(() => undefined);
  }
}

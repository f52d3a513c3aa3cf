import { type Disposable, toDisposable } from "@pseudoclaude/core/plugin";
import { EventEmitter } from "eventemitter3";
import type { ServerNotice } from "../mcp-session.js";
import type { ExitInfo } from "../wire/stdio-transport.js";

/** What a session tells its listeners, in either era. */
export interface SessionEventMap {
  "tools-changed": [];
  notice: [ServerNotice];
  /** `notifications/elicitation/complete`: the 2025 era only. */
  "elicitation-complete": [string];
  closed: [string];
}

/**
 * A session's events, and what a server's notifications mean as events. Each era's client
 * registers these handlers for its notifications (the v2 client by method, the 1.x SDK by
 * schema), so both eras hear a notification the same way.
 */
export class SessionEvents extends EventEmitter<SessionEventMap> {
  /** `listener` on `event` until the returned Disposable is disposed: a session's `on…`. */
  subscribe<E extends keyof SessionEventMap>(
    event: E,
    listener: EventEmitter.EventListener<SessionEventMap, E>,
  ): Disposable {
    this.on(event, listener);
    return toDisposable(() => this.off(event, listener));
  }

  /** `notifications/tools/list_changed`. */
  readonly toolsListChanged = async (): Promise<void> => {
    this.emit("tools-changed");
  };

  /** `notifications/resources/list_changed`. */
  readonly resourcesListChanged = async (): Promise<void> => {
    this.emit("notice", { kind: "resources-changed" });
  };

  /** `notifications/prompts/list_changed`. */
  readonly promptsListChanged = async (): Promise<void> => {
    this.emit("notice", { kind: "prompts-changed" });
  };

  /** `notifications/resources/updated`: a resource subscribed to changed. */
  readonly resourceUpdated = async ({ params }: { params: { uri: string } }): Promise<void> => {
    this.emit("notice", { kind: "resource-updated", uri: params.uri });
  };

  /** `notifications/elicitation/complete` (2025 era): a URL elicitation finished out of band. */
  readonly elicitationComplete = async ({
    params,
  }: {
    params: { elicitationId: string };
  }): Promise<void> => {
    this.emit("elicitation-complete", params.elicitationId);
  };
}

/**
 * Why a session ended without `close()`, as its `closed` event says it: how the stdio server's
 * process ended when it did, otherwise the connection closed.
 */
export function closeReason(exit: ExitInfo | undefined): string {
  return exit
    ? exit.code !== null
      ? `process exited with code ${exit.code}`
      : `process killed by ${exit.signal}`
    : "connection closed";
}

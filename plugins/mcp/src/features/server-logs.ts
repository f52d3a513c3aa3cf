import { type Disposable, toDisposable } from "@pseudoclaude/core/plugin";
import { EventEmitter } from "eventemitter3";
import type { ServerLogEntry } from "../mcp-session.js";

/**
 * Every server's log messages (`notifications/message`) as they arrive, already redacted, for
 * code that passes them on (the gateway relays them to its clients). Unlike the diagnostics
 * they also become, nothing is capped here: a listener keeps what it wants.
 */
export class ServerLogs {
  private readonly events = new EventEmitter<{ log: [string, ServerLogEntry] }>();

  publish(server: string, entry: ServerLogEntry): void {
    this.events.emit("log", server, entry);
  }

  subscribe(listener: (server: string, entry: ServerLogEntry) => void): Disposable {
    this.events.on("log", listener);
    return toDisposable(() => this.events.off("log", listener));
  }
}

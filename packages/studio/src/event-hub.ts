import type { ServerResponse } from "node:http";
import { toJson } from "./http-json.js";

/** One message of `/api/events`: its `type` beside its own fields. */
export type StudioEvent = { type: string } & Record<string, unknown>;

/**
 * The studio's live feed as Server-Sent Events: every page open on the studio gets every event
 * (runs, approvals, tool list changes, server states), each `data:` line one JSON object.
 * A comment line every 15 s keeps proxies and idle timers from closing the stream.
 */
export class EventHub {
  private readonly clients = new Set<ServerResponse>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor() {
    this.heartbeat = setInterval(() => {
      for (const client of this.clients) client.write(": keep-alive\n\n");
    }, 15_000);
    this.heartbeat.unref();
  }

  /** Hold `response` open as an event stream until the client goes. */
  attach(response: ServerResponse): void {
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
    });
    response.write(": connected\n\n");
    this.clients.add(response);
    response.on("close", () => this.clients.delete(response));
  }

  publish(event: StudioEvent): void {
    if (this.clients.size === 0) return;
    const frame = `data: ${toJson(event)}\n\n`;
    for (const client of this.clients) client.write(frame);
  }

  get size(): number {
    return this.clients.size;
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const client of this.clients) client.end();
    this.clients.clear();
  }
}

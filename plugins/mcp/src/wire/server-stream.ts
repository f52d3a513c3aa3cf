import type http from "node:http";
import { type Exchange, refused } from "./http-access.js";
import { SseEventReader } from "./sse-event-reader.js";

/** Reconnections of the stream in a row that bring nothing, before giving up. */
const MAX_QUIET_RECONNECTS = 2;

/** What the stream needs of its transport. */
export interface StreamHost {
  closed(): boolean;
  /** The GET that opens (or resumes, after `lastEventId`) the stream. */
  get(lastEventId: string | undefined): Promise<Exchange>;
  deliver(message: unknown): void;
  /** A request to end when the transport closes (`kept`), or no longer. */
  track(request: http.ClientRequest, kept: boolean): void;
  /** After the server's `retry:` (or the first delay), unless the transport closes. */
  after(retryMs: number | undefined, then: () => void): void;
  error(error: Error): void;
  /** A legacy server ended its one stream: the transport is done. */
  ended(): void;
}

/**
 * The stream a server speaks on unasked. In a 2025-11-25 session it is the GET the session
 * opens once initialized (list changes, log messages), opened again after the server's
 * `retry:` when it ends; a server without one says 405. A legacy (2024-11-05) HTTP+SSE
 * server has only this stream: its first event, `endpoint`, says where to POST (within the
 * server's origin), and every answer comes on it; when it ends, so does the transport.
 */
export class ServerStream {
  private opened = false;

  constructor(
    private readonly host: StreamHost,
    private readonly base: URL,
    private readonly legacy: boolean,
  ) {}

  /** Open the stream; a legacy server's resolves with the endpoint it names. */
  open(lastEventId?: string, quiet = 0): Promise<URL | undefined> {
    if (this.host.closed() || (this.opened && lastEventId === undefined && quiet === 0))
      return Promise.resolve(undefined);
    this.opened = true;
    return this.host.get(lastEventId).then(({ request, response }) => {
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        response.resume();
        const refusal = refused(status, `The server's event stream: ${status}.`);
        if (this.legacy) throw refusal;
        if (status !== 405) this.host.error(refusal);
        return undefined;
      }
      return this.read(request, response, lastEventId, quiet);
    });
  }

  private read(
    request: http.ClientRequest,
    response: http.IncomingMessage,
    lastEventId: string | undefined,
    quiet: number,
  ): Promise<URL | undefined> {
    this.host.track(request, true);
    return new Promise((resolve, reject) => {
      const events = new SseEventReader();
      let last = lastEventId;
      let heard = false;
      let named = !this.legacy;
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        for (const event of events.push(chunk)) {
          if (event.id) last = event.id;
          if (!named && event.event === "endpoint") {
            named = true;
            const endpoint = new URL(event.data, this.base);
            if (endpoint.origin === this.base.origin) resolve(endpoint);
            else {
              reject(
                refused(-1, `The server named an endpoint on another origin (${endpoint.origin}).`),
              );
              response.destroy();
            }
            continue;
          }
          if (!event.data || (event.event && event.event !== "message")) continue;
          heard = true;
          try {
            this.host.deliver(JSON.parse(event.data));
          } catch (error) {
            this.host.error(error as Error);
          }
        }
      });
      if (!this.legacy) resolve(undefined);
      response.on("error", () => {});
      response.once("close", () => {
        this.host.track(request, false);
        if (this.host.closed()) return;
        if (this.legacy) {
          if (!named)
            reject(refused(-1, "The server's event stream ended before naming an endpoint."));
          this.host.ended();
          return;
        }
        const next = heard ? 0 : quiet + 1;
        if (next <= MAX_QUIET_RECONNECTS)
          this.host.after(events.retryMs, () => void this.open(last, next).catch(() => undefined));
      });
    });
  }
}

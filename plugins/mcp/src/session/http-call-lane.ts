import http from "node:http";
import https from "node:https";
import type { JSONRPCMessage, OAuthClientProvider } from "@modelcontextprotocol/client";
import { SseEventReader } from "../wire/sse-event-reader.js";
import { traceHeadersOf } from "./trace-header-fetch.js";

/** The SDK transport's `initialReconnectionDelay`, used when the server gives no `retry:`. */
const FIRST_RECONNECTION_DELAY_MS = 1_000;

/**
 * What the lane needs of the SDK's Streamable HTTP transport, in either SDK line: to send what
 * needs its judgement, to hand on what the server answered, and (1.x) the session it holds.
 */
export interface LaneTransport {
  send(message: JSONRPCMessage, options?: { resumptionToken?: string }): Promise<void>;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  readonly sessionId?: string | undefined;
  readonly protocolVersion?: string | undefined;
}

/** How a lane speaks its era, beside the transport's own headers. */
export interface LaneEra {
  /** The error a refusal fails with, as the era's SDK transport would throw it. */
  httpError(status: number, message: string): Error;
  /** Headers a message carries in this era (2026-07-28: `Mcp-Method`, `Mcp-Name`). */
  headersOf?(message: JSONRPCMessage): Record<string, string>;
  /**
   * A 400 whose body is a JSON-RPC error for the request is its answer (2026-07-28: the server
   * refuses a request it cannot take so), handed on as the v2 transport does.
   */
  refusalsAnswer?: boolean;
}

/**
 * The POST of a request the channel sends itself (a plain `tools/call`) to a Streamable HTTP
 * server, over `node:http` with a keep-alive agent instead of the SDK transport's `fetch` and
 * web streams: measured at 32 calls in flight, a fetch with its response read through a
 * TextDecoderStream cost ~0.9-1.3 ms of client CPU a call, `node:http` 0.24-0.38 ms.
 *
 * It sends what the SDK transport sends (its headers, the session id and protocol version
 * the transport negotiated, the bearer token the auth provider holds, the trace headers) and
 * hands every message of the answer - JSON or an SSE stream - to the transport's `onmessage`,
 * as the transport would. What needs the SDK's judgement goes to the SDK transport, which sends
 * it the way it always did: a 401 or 403 (authorization, which the SDK runs), a redirect (the
 * SDK follows those within the origin), and a stream that broke after an event id (the SDK
 * resumes it with Last-Event-ID). None of those were processed by the server, so sending again
 * runs nothing twice. Any other refusal fails as the SDK's would (LaneEra.httpError).
 */
export class HttpCallLane {
  private readonly agent: http.Agent;
  private readonly request: typeof http.request;
  /** Requests waiting for their answer, by JSON-RPC id. */
  private readonly live = new Map<string | number, http.ClientRequest>();
  private closed = false;
  /** Waits before resuming a stream the server ended early. */
  private readonly resuming = new Map<NodeJS.Timeout, (error: Error) => void>();
  /** Requests given up on: their broken stream is not resumed. */
  private readonly abandoned = new WeakSet<http.ClientRequest>();

  constructor(
    private readonly url: URL,
    private readonly transport: LaneTransport,
    /** The server's configured headers (`headers` in its config), sent with every request. */
    private readonly headers: Record<string, string>,
    private readonly authProvider: OAuthClientProvider | undefined,
    private readonly era: LaneEra,
  ) {
    const secure = url.protocol === "https:";
    this.agent = secure
      ? new https.Agent({ keepAlive: true })
      : new http.Agent({ keepAlive: true });
    this.request = secure ? https.request : http.request;
  }

  /** POST `message`; resolves once its answer has been handed on, rejects if it cannot be. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw this.era.httpError(-1, "The transport is closed.");
    const headers = await this.requestHeaders(message);
    // A DPoP-bound token needs a proof per request, which the SDK transport's fetch signs.
    if (!headers) return this.transport.send(message);
    const body = JSON.stringify(message);
    headers["content-length"] = String(Buffer.byteLength(body));
    const { request, response } = await this.post(
      headers,
      body,
      "id" in message ? message.id : undefined,
    );
    const status = response.statusCode ?? 0;
    // As the SDK transport does with every answer: a session id it carries is the one to use.
    const sessionId = response.headers["mcp-session-id"];
    if (typeof sessionId === "string" && sessionId !== "") this.useSession(sessionId);
    if (status === 401 || status === 403 || (status >= 300 && status < 400)) {
      // Not run by the server: the SDK transport authorizes or follows, and sends it again.
      response.resume();
      return this.transport.send(message);
    }
    if (status < 200 || status >= 300) {
      const text = await readAll(response).catch(() => "");
      if (status === 400 && this.era.refusalsAnswer && this.answeredIn(text, message)) return;
      throw this.era.httpError(status, `Error POSTing to endpoint: ${text}`);
    }
    if (status === 202) {
      response.resume();
      return;
    }
    const type = String(response.headers["content-type"] ?? "")
      .split(";")[0]!
      .trim()
      .toLowerCase();
    if (type === "application/json") {
      const data: unknown = JSON.parse(await readAll(response));
      for (const item of Array.isArray(data) ? data : [data]) this.deliver(item);
      return;
    }
    if (type === "text/event-stream") return this.readStream(message, request, response);
    response.resume();
    throw this.era.httpError(-1, `Unexpected content type: ${type}`);
  }

  /** Whether `text` is a JSON-RPC error answering `message` (then it is handed on). */
  private answeredIn(text: string, message: JSONRPCMessage): boolean {
    let answer: { jsonrpc?: unknown; id?: unknown; error?: unknown } | undefined;
    try {
      answer = JSON.parse(text);
    } catch {
      return false;
    }
    if (answer?.error === undefined || !("id" in message) || answer.id !== message.id) return false;
    this.deliver(answer);
    return true;
  }

  /** Ends every request in flight; what waits on them fails as after a closed connection. */
  close(): void {
    this.closed = true;
    for (const [timer, fail] of this.resuming) {
      clearTimeout(timer);
      fail(this.era.httpError(-1, "The transport is closed."));
    }
    this.resuming.clear();
    for (const request of this.live.values()) request.destroy();
    this.live.clear();
    this.agent.destroy();
  }

  /** The request with `id` was cancelled: its answer is not wanted, so its socket is freed. */
  abandon(id: string | number): void {
    const request = this.live.get(id);
    if (!request) return;
    this.abandoned.add(request);
    this.live.delete(id);
    request.destroy();
  }

  /**
   * The SDK transport keeps the session id in a field of its own with no setter; it is set
   * there so the transport's next request (a listing, a cancel) sends the same one.
   */
  private useSession(sessionId: string): void {
    const transport = this.transport as unknown as { _sessionId?: string };
    if ("_sessionId" in transport) transport._sessionId = sessionId;
  }

  private async requestHeaders(
    message: JSONRPCMessage,
  ): Promise<Record<string, string> | undefined> {
    const headers: Record<string, string> = {};
    const tokens = this.authProvider ? await this.authProvider.tokens() : undefined;
    if (tokens?.token_type?.toLowerCase() === "dpop") return undefined;
    if (tokens) headers.authorization = `Bearer ${tokens.access_token}`;
    const { sessionId, protocolVersion } = this.transport;
    if (sessionId) headers["mcp-session-id"] = sessionId;
    if (protocolVersion) headers["mcp-protocol-version"] = protocolVersion;
    // The configured ones win, as in the SDK transport.
    for (const [name, value] of Object.entries(this.headers)) headers[name.toLowerCase()] = value;
    const trace = traceHeadersOf(message);
    if (trace) for (const [name, value] of Object.entries(trace)) headers[name] = value;
    const own = this.era.headersOf?.(message);
    if (own) for (const [name, value] of Object.entries(own)) headers[name] = value;
    headers["content-type"] = "application/json";
    headers.accept = "application/json, text/event-stream";
    return headers;
  }

  private post(
    headers: Record<string, string>,
    body: string,
    id: string | number | undefined,
  ): Promise<{ request: http.ClientRequest; response: http.IncomingMessage }> {
    return new Promise((resolve, reject) => {
      const request = this.request(
        this.url,
        { method: "POST", headers, agent: this.agent },
        (response) => {
          if (id !== undefined) response.once("close", () => this.forget(id, request));
          resolve({ request, response });
        },
      );
      if (id !== undefined) this.live.set(id, request);
      request.once("error", (error) => {
        if (id !== undefined) this.forget(id, request);
        reject(error);
      });
      request.end(body);
    });
  }

  private forget(id: string | number, request: http.ClientRequest): void {
    if (this.live.get(id) === request) this.live.delete(id);
  }

  /** The answer as SSE: each `message` event handed on, as the SDK transport does. */
  private readStream(
    sent: JSONRPCMessage,
    request: http.ClientRequest,
    response: http.IncomingMessage,
  ): Promise<void> {
    const awaited = "id" in sent ? sent.id : undefined;
    return new Promise((resolve, reject) => {
      const events = new SseEventReader();
      let lastEventId: string | undefined;
      let answered = false;
      let failed = false;
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        if (failed) return;
        try {
          for (const event of events.push(chunk)) {
            if (event.id) lastEventId = event.id;
            if (!event.data || (event.event && event.event !== "message")) continue;
            const message = JSON.parse(event.data) as { id?: unknown; method?: unknown };
            if (message.id === awaited && message.method === undefined) answered = true;
            this.deliver(message);
          }
        } catch (error) {
          failed = true;
          response.destroy();
          reject(error);
        }
      });
      // A read error is followed by close, which decides.
      response.on("error", () => {});
      response.once("close", () => {
        if (failed) return;
        if (answered || awaited === undefined) return resolve();
        if (this.abandoned.has(request)) return resolve();
        // The stream ended before the answer: resume it as the SDK does, if the server allows,
        // after the wait the server asked for (`retry:`) or the SDK's first reconnection delay.
        if (lastEventId && !this.closed) {
          const resumptionToken = lastEventId;
          const timer = setTimeout(() => {
            this.resuming.delete(timer);
            resolve(this.transport.send(sent, { resumptionToken }));
          }, events.retryMs ?? FIRST_RECONNECTION_DELAY_MS);
          this.resuming.set(timer, reject);
        } else
          reject(
            this.era.httpError(
              -1,
              response.complete
                ? "The server ended the stream before answering."
                : "The connection closed before the server answered.",
            ),
          );
      });
    });
  }

  private deliver(message: unknown): void {
    if (
      !message ||
      typeof message !== "object" ||
      (message as { jsonrpc?: unknown }).jsonrpc !== "2.0"
    )
      throw this.era.httpError(-1, "The server answered with something that is not JSON-RPC 2.0.");
    this.transport.onmessage?.(message as JSONRPCMessage);
  }
}

function readAll(response: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    response.setEncoding("utf8");
    response.on("data", (chunk: string) => {
      text += chunk;
    });
    response.once("end", () => resolve(text));
    response.once("error", reject);
  });
}

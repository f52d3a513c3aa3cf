// What differs between the protocol revisions on the wire, as small strategies: era-2025.ts
// and era-2026.ts say what each does; the connection and the HTTP transport follow them.
import type { JSONRPCMessage } from "@modelcontextprotocol/client";

/** How the connection speaks a server's era, beside what the transport does. */
export interface ConnectionEra {
  /**
   * 2026-07-28: a result without `resultType` is a complete one (the specification says a
   * client MUST assume so; the v2 client refuses such a result), given the field on its way
   * to the client.
   */
  completeResults?: boolean;
  /**
   * 2026-07-28: a `subscriptions/listen` request's id names its subscription in what the server
   * sends later (`_meta` `io.modelcontextprotocol/subscriptionId`, `notifications/cancelled`),
   * given back the client's id on the way in.
   */
  subscriptions?: boolean;
}

/** How a revision speaks over Streamable HTTP, beside what every request carries. */
export interface HttpEra {
  /** Headers a message carries in this era (2026-07-28: `Mcp-Method`, `Mcp-Name`, …). */
  headersOf?(message: JSONRPCMessage): Record<string, string>;
  /** 2026-07-28: a 400 whose body is the request's JSON-RPC error is its answer. */
  refusalsAnswer?: boolean;
  /**
   * 2026-07-28: each request has a stream of its own, and closing it is how a request is
   * cancelled; 2025-11-25 sends `notifications/cancelled` and has a stream for what the server
   * says unasked (a GET, opened once the session is initialized).
   */
  perRequestStreams?: boolean;
}

/** One revision on the wire: above the transport and over HTTP. */
export interface Era {
  connection: ConnectionEra;
  http: HttpEra;
}

import { type CallOptions, McpCallError, type RemoteCallResult } from "../mcp-session.js";
import type { Connection } from "../wire/connection.js";
import { toRemoteCallResult } from "./results.js";

/** A `tools/call` request's params, as the session builds them. */
export type ToolCallParams = {
  name: string;
  arguments: Record<string, unknown>;
  _meta?: Record<string, unknown>;
};

/**
 * Plain 2026-07-28 tool calls over our own channel (wire/connection.ts), beside the v2 client:
 * the request with its envelope (the channel stamps it), the raw answer taken as it is. The
 * client's own `tools/call` parses every answer with zod, scans the tool for headers to mirror
 * and builds its options, which a plain call over stdio does not need.
 *
 * What only the client can do stays with it. A call that wants progress goes through it, and
 * over HTTP so does a tool whose parameters become `Mcp-Param-*` headers (`x-mcp-header`). A
 * tool that answers `input_required` asks the person or the model for something: the client's
 * multi-round-trip driver answers it through the session's handlers, so the call is made
 * again through the client (`undefined` from `resultOf`), and so is every later call of that
 * tool.
 * Making it again is what the revision expects of a client: a server keeps no state between
 * the legs of a request, each leg runs the tool's handler from the start.
 */
export class PlainCalls {
  /** Tools that asked for input once: their calls go through the client from then on. */
  private readonly asking = new Set<string>();

  /** `channel` carries the calls; the session sends them on it itself (a short call path). */
  constructor(
    readonly channel: Connection,
    /** Over HTTP: whether a tool's call mirrors parameters as headers (the client does that). */
    private readonly mirrors?: (name: string) => boolean,
  ) {}

  /** Whether a call of `name` with `options` can go plain. */
  carries(name: string, options: CallOptions): boolean {
    return !options.onProgress && !this.asking.has(name) && !this.mirrors?.(name);
  }

  /** What the plain call of `name` was answered; `undefined` when it asked for input. */
  resultOf(name: string, answer: unknown): RemoteCallResult | undefined {
    const type = (answer as { resultType?: unknown } | null)?.resultType;
    if (type === undefined || type === "complete") return toRemoteCallResult(answer);
    if (type === "input_required") {
      this.asking.add(name);
      return undefined;
    }
    throw new McpCallError(
      "protocol",
      `The server answered tools/call with resultType "${String(type)}", which a call without the Tasks extension cannot take.`,
    );
  }
}

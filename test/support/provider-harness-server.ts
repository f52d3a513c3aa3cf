// The part of every provider contract harness that is not an API's: a wire server that plays
// the suite's replies (each API's module says how) and reads requests back (likewise).
import type { Provider } from "@pseudoclaude/core";
import type { ProviderUsage } from "@pseudoclaude/core/provider";
import type {
  ProviderContractReply,
  ProviderContractRequest,
  ProviderContractServer,
  ProviderContractSettings,
  ProviderContractToolCall,
} from "@pseudoclaude/testing";
import {
  type RecordedHttpRequest,
  type SseEvent,
  startWireServer,
  type WireReply,
} from "../fixtures/providers/wire-server.js";

/** A request as the harnesses record it: the wire server's record. */
export type HarnessRequest = ProviderContractRequest<RecordedHttpRequest>;

/** What one API's harness knows: how to create its provider, answer and read requests. */
export interface WireHarnessApi {
  /** The path prefix of the API's base URL, e.g. `/v1`. */
  readonly prefix: string;
  provider(baseURL: string, settings: ProviderContractSettings): Provider;
  /** The suite's reply in the API's wire format. */
  play(reply: ProviderContractReply): WireReply;
  /** A recorded request in the suite's terms. */
  read(request: RecordedHttpRequest): Omit<HarnessRequest, "wire">;
}

/** Start a wire server that speaks `api` to the suite. */
export async function startHarnessServer(
  api: WireHarnessApi,
): Promise<ProviderContractServer<RecordedHttpRequest>> {
  const server = await startWireServer(api.prefix);
  const read = (request: RecordedHttpRequest): HarnessRequest => ({
    wire: request,
    ...api.read(request),
  });
  return {
    provider: (settings = {}) => api.provider(server.baseURL, settings),
    reply: (...scripts) =>
      server.reply(
        ...scripts.map(
          (script): WireReply =>
            (request, response, raw) =>
              api.play(typeof script === "function" ? script(read(request)) : script)(
                request,
                response,
                raw,
              ),
        ),
      ),
    requests: () => server.requests.map(read),
    pending: () => server.pending(),
    reset: () => server.reset(),
    close: () => server.close(),
  };
}

/** A tool call as the wire fixtures take it. */
export interface FixtureToolCall {
  id?: string;
  name: string;
  input?: unknown;
  rawJson?: string;
}

/** The parts of one streamed answer, in the kernel's terms, for an API's fixtures to spell. */
export interface TurnParts {
  text?: string | string[];
  toolCalls?: FixtureToolCall[];
  usage?: ProviderUsage;
}

/** The error replies of the suite, which each API spells its own way. */
export type ErrorReply = Extract<
  ProviderContractReply,
  { type: "http-error" | "rate-limited" | "overloaded" }
>;

/** One API's wire fixtures, as the shared player uses them. `Spec` is the API's turn spec. */
export interface WireFixtures<Spec> {
  turn(parts: TurnParts): Spec;
  events(spec: Spec): SseEvent[];
  stream(spec: Spec, cut?: { cutAfter?: number; endAfter?: number }): WireReply;
  /** Whether an event carries answer text (the events before the first one do not count). */
  isTextDelta(event: SseEvent): boolean;
  hang(opened: () => void, closed: () => void): WireReply;
  error(reply: ErrorReply): WireReply;
}

/** The suite's replies played with one API's fixtures. */
export function wirePlayer<Spec>(
  fixtures: WireFixtures<Spec>,
): (reply: ProviderContractReply) => WireReply {
  return (reply) => {
    switch (reply.type) {
      case "text":
        return fixtures.stream(
          fixtures.turn({
            text: [...reply.deltas],
            ...(reply.usage ? { usage: reply.usage } : {}),
          }),
        );
      case "tool-calls":
        return fixtures.stream(
          fixtures.turn({
            ...(reply.text !== undefined ? { text: reply.text } : {}),
            toolCalls: reply.calls.map(fixtureCall),
          }),
        );
      case "drop-mid-stream":
      case "end-stream-early": {
        const spec = fixtures.turn({ text: [...reply.deltas] });
        const count = eventsThroughDelta(fixtures.events(spec), fixtures.isTextDelta, reply.after);
        return fixtures.stream(
          spec,
          reply.type === "drop-mid-stream" ? { cutAfter: count } : { endAfter: count },
        );
      }
      case "hang":
        return fixtures.hang(reply.opened, reply.closed);
      default:
        return fixtures.error(reply);
    }
  };
}

function fixtureCall(call: ProviderContractToolCall): FixtureToolCall {
  return {
    id: call.id,
    name: call.name,
    ...(call.json !== undefined ? { rawJson: call.json } : { input: call.arguments }),
  };
}

/**
 * How many of `events` to send so that exactly `after` text deltas arrive: up to and with the
 * `after`-th event `isDelta` accepts.
 */
function eventsThroughDelta(
  events: readonly SseEvent[],
  isDelta: (event: SseEvent) => boolean,
  after: number,
): number {
  let seen = 0;
  const index = events.findIndex((event) => isDelta(event) && ++seen === after);
  if (index === -1) throw new Error(`The reply streams fewer than ${after} text deltas.`);
  return index + 1;
}

/** JSON arguments as the suite reads them back: parsed where they parse, else the raw text. */
export function parsedArguments(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

/** A tool choice in the suite's terms: `required` for the API's forcing form `forced`. */
export function toolChoiceOf(sent: unknown, forced: unknown): string | undefined {
  if (sent === undefined) return undefined;
  return JSON.stringify(sent) === JSON.stringify(forced) ? "required" : JSON.stringify(sent);
}

/** The key of a `Bearer` authorization header. */
export function bearerKey(request: RecordedHttpRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith("Bearer ") ? header.slice("Bearer ".length) : undefined;
}

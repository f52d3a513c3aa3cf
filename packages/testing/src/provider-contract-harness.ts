import type { Provider } from "@pseudoclaude/core";
import type { ProviderUsage } from "@pseudoclaude/core/provider";

/**
 * One tool call the scripted model makes. Give `arguments` for well-formed JSON arguments, or
 * `json` for the exact text the model streamed, which need not parse (a broken call).
 */
export interface ProviderContractToolCall {
  /** The call id the API gives it. */
  readonly id: string;
  /** The tool name as the API saw it: the wire name the provider sent, not the registry's. */
  readonly name: string;
  /** The arguments, streamed as JSON in the API's pieces. */
  readonly arguments?: unknown;
  /** The arguments as raw text, streamed as they are (takes precedence over `arguments`). */
  readonly json?: string;
}

/**
 * What the local server does with one request, in the API's terms rather than its wire
 * format: the harness turns each into its API's real responses, streaming included.
 */
export type ProviderContractReply =
  /** A streamed answer: these text deltas, then the usage, ending the turn normally. */
  | { readonly type: "text"; readonly deltas: readonly string[]; readonly usage?: ProviderUsage }
  /** A streamed answer with optional text first, then these tool calls, ending for tool use. */
  | {
      readonly type: "tool-calls";
      readonly text?: string;
      readonly calls: readonly ProviderContractToolCall[];
    }
  /**
   * An error response with this HTTP status that the client must not retry, carrying
   * `message` (the suite puts the key in it, as servers that echo a refused key do) and
   * `requestId` where the API sends request ids.
   */
  | {
      readonly type: "http-error";
      readonly status: number;
      readonly message: string;
      readonly requestId: string;
    }
  /** A 429, asking the client to retry after a millisecond. */
  | { readonly type: "rate-limited" }
  /** The API's overload or unavailable status, asking the client to retry after a millisecond. */
  | { readonly type: "overloaded" }
  /** A streamed answer whose connection drops (socket destroyed) after `after` of `deltas`. */
  | { readonly type: "drop-mid-stream"; readonly deltas: readonly string[]; readonly after: number }
  /**
   * A streamed answer the server ends cleanly after `after` of `deltas`, before the event
   * that completes a response in the API (the answer is incomplete).
   */
  | {
      readonly type: "end-stream-early";
      readonly deltas: readonly string[];
      readonly after: number;
    }
  /**
   * A stream that starts and then sends nothing until the client hangs up: `opened` once the
   * head is sent, `closed` once the client closed the connection.
   */
  | { readonly type: "hang"; readonly opened: () => void; readonly closed: () => void };

/** One tool call as the provider sent it back in the conversation. */
export interface ProviderContractSentCall {
  readonly id: string;
  /** The wire name. */
  readonly name: string;
  /** The arguments as sent: parsed JSON where they parse, else the API's raw form. */
  readonly arguments: unknown;
}

/** One message of the conversation as the provider sent it, read back from the wire. */
export type ProviderContractMessage =
  /** A user turn's text, its text blocks joined. */
  | { readonly role: "user"; readonly text: string }
  /** An assistant turn: its text (empty when none) and tool calls (in order). */
  | {
      readonly role: "assistant";
      readonly text: string;
      readonly toolCalls: readonly ProviderContractSentCall[];
    }
  /** The result of one tool call, its text blocks joined. */
  | { readonly role: "tool"; readonly callId: string; readonly text: string };

/**
 * One request the local server received, read back by the harness from its wire format.
 * `wire` is the request as the harness recorded it, for the harness's own wire checks.
 */
export interface ProviderContractRequest<Wire = unknown> {
  readonly wire: Wire;
  readonly model: string | undefined;
  /** The API key as the request carried it (e.g. from the `authorization` header). */
  readonly credential: string | undefined;
  /** The system prompt, however the API takes it; undefined when none was sent. */
  readonly system: string | undefined;
  /** The output token limit, under whatever field the API reads it. */
  readonly maxTokens: number | undefined;
  /** The tool names offered, in order; undefined when the request has no tools field. */
  readonly tools: readonly string[] | undefined;
  /**
   * `required` when the request forces a tool call in the API's wire form; undefined when it
   * sends no tool choice; any other choice as its JSON text.
   */
  readonly toolChoice: string | undefined;
  /** The conversation, system prompt excluded. */
  readonly messages: readonly ProviderContractMessage[];
}

/** What a reply may be computed from: the request it answers (e.g. to use a sent tool name). */
export type ProviderContractScript<Wire = unknown> =
  | ProviderContractReply
  | ((request: ProviderContractRequest<Wire>) => ProviderContractReply);

/** Settings the suite asks for; the harness maps them to its provider's options. */
export interface ProviderContractSettings {
  /** The model to use; default: the provider's default model. */
  readonly model?: string;
  /** The context window to declare instead of the model's own. */
  readonly contextWindow?: number;
  /** The output token limit to send. */
  readonly maxTokens?: number;
  /** How often to retry a 429 or an overload; default 0, so failures show at once. */
  readonly maxRetries?: number;
}

/** A local server that speaks the provider's API, scripted and read in the suite's terms. */
export interface ProviderContractServer<Wire = unknown> {
  /** The provider under test, pointed at this server with the harness's key. */
  provider(settings?: ProviderContractSettings): Provider;
  /** Queue replies, answered in order (a request with none left fails). */
  reply(...replies: ProviderContractScript<Wire>[]): void;
  /** Every request received since the last reset, in order. */
  requests(): readonly ProviderContractRequest<Wire>[];
  /** Replies not used yet (the suite checks none is left after each case). */
  pending(): number;
  /** Forget requests and queued replies. */
  reset(): void;
  /** Stop listening and cut every open connection. */
  close(): Promise<void>;
}

/**
 * Which case of the suite a wire check belongs to. `http-error` runs once per status the
 * suite tries (400 and 401).
 */
export type ProviderContractCase =
  | "streams-text"
  | "forces-tool-call"
  | "context-window"
  | "with-model"
  | "parallel-tool-calls"
  | "streams-tool-input"
  | "broken-tool-json"
  | "http-error"
  | "retries"
  | "gives-up-retrying"
  | "drop-mid-stream"
  | "end-stream-early"
  | "abort"
  | "abort-stream"
  | "unreachable";

/** What a case saw, for a wire check to assert more about it. */
export interface ProviderContractObservation<Wire = unknown> {
  /** The requests of the case, in order. */
  readonly requests: readonly ProviderContractRequest<Wire>[];
  /** The error the case expected and got, if it expects one. */
  readonly error?: unknown;
}

/** Assertions of one provider's own on top of a case (its wire format, its error details). */
export type ProviderContractWireCheck<Wire = unknown> = (
  seen: ProviderContractObservation<Wire>,
) => void | Promise<void>;

/**
 * How a provider plugs into the contract suite: it starts a local server that speaks the
 * provider's API, creates the provider pointed at it, plays the suite's replies in the API's
 * wire format and reads the requests back. `Wire` is the type of a recorded request.
 */
export interface ProviderContractHarness<Wire = unknown> {
  /** Shown in the suite's title, e.g. `Anthropic Messages`. */
  readonly name: string;
  /** The key the harness gives the provider; the suite checks it is sent and never leaks. */
  readonly apiKey: string;
  /**
   * The counts this provider reports in a usage event, exactly: the suite expects these keys
   * and no others (a count the suite scripted no figure for is expected as 0).
   */
  readonly usageCounts: readonly (keyof ProviderUsage)[];
  /** Start a server on a free loopback port. */
  start(): Promise<ProviderContractServer<Wire>>;
  /**
   * Whether the provider streams a tool call's arguments (`tool-input-delta`) before the call;
   * default true. False: the suite checks that it sends none.
   */
  readonly streamsToolInput?: boolean;
  /** The longest a case may take before it fails as hanging; default 10 seconds. */
  readonly timeoutMs?: number;
  /** Assertions of the provider's own, run at the end of the case they name. */
  readonly wireChecks?: {
    readonly [Case in ProviderContractCase]?: ProviderContractWireCheck<Wire>;
  };
}

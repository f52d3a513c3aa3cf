import type { HttpServerConfig } from "../config/server-config.js";
import type { DialOptions } from "../mcp-session.js";
import { SseEventReader } from "../wire/sse-event-reader.js";
import {
  classifyDiscoverAnswer,
  discoverRequest,
  type EraVerdict,
  MODERN_PROTOCOL,
  UNSUPPORTED_PROTOCOL_VERSION,
} from "./era-probe.js";

/** Most of a discover answer read: a DiscoverResult is small, a hostile body is not read whole. */
const MAX_ANSWER_BYTES = 1_000_000;

/**
 * Ask a Streamable HTTP server which era it speaks: one POST of `server/discover` with the
 * 2026-07-28 headers. A DiscoverResult offering our version (as JSON or in an SSE event) is
 * modern; everything else (a 4xx a 2025 server gives, a 401 that wants a login, no answer in
 * time, a network error) is legacy, and the 2025 path connects and reports as it always has.
 */
export async function probeHttpEra(
  server: Pick<HttpServerConfig, "url" | "headers">,
  options: Pick<DialOptions, "clientInfo" | "signal">,
  capabilities: Record<string, unknown>,
  timeoutMs: number,
  /** How to send it: a logged-in server is asked with its token (and DPoP proof). */
  send: (input: string, init: RequestInit) => Promise<Response> = fetch,
  retried = false,
): Promise<EraVerdict> {
  const id = "pseudoclaude-discover";
  let response: Response;
  try {
    response = await send(server.url, {
      method: "POST",
      headers: {
        ...server.headers,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN_PROTOCOL,
        "mcp-method": "server/discover",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id,
        ...discoverRequest(options.clientInfo, capabilities),
      }),
      redirect: "manual",
      signal: AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]),
    });
  } catch (error) {
    return { era: "legacy", why: `server/discover failed: ${(error as Error).message}` };
  }
  try {
    if (!response.ok) {
      // -32022 naming our version among those supported: the spec's corrective answer, sent
      // again once at that version (a second refusal is the answer).
      const refusal = (await answerOf(response, id)) as
        | { error?: { code?: unknown; data?: { supported?: unknown } } }
        | undefined;
      const supported = refusal?.error?.data?.supported;
      if (
        !retried &&
        refusal?.error?.code === UNSUPPORTED_PROTOCOL_VERSION &&
        Array.isArray(supported) &&
        supported.includes(MODERN_PROTOCOL)
      )
        return probeHttpEra(server, options, capabilities, timeoutMs, send, true);
      return {
        era: "legacy",
        why: `server/discover answered HTTP ${response.status}`,
        status: response.status,
        ...(response.headers.has("www-authenticate")
          ? { challenge: response.headers.get("www-authenticate") as string }
          : {}),
      };
    }
    const message = await answerOf(response, id);
    return message === undefined
      ? { era: "legacy", why: "server/discover got no JSON-RPC answer" }
      : classifyDiscoverAnswer(message);
  } catch (error) {
    return { era: "legacy", why: `server/discover failed: ${(error as Error).message}` };
  } finally {
    await response.body?.cancel().catch(() => undefined);
  }
}

/**
 * The answer in a response, read to a bound: its JSON body, or the first event of an SSE
 * stream that answers `id` (the stream may stay open after it: reading stops there).
 */
async function answerOf(response: Response, id: string): Promise<unknown> {
  const reader = response.body?.getReader();
  if (!reader) return undefined;
  const events = (response.headers.get("content-type") ?? "").includes("text/event-stream")
    ? new SseEventReader()
    : undefined;
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_ANSWER_BYTES) throw new Error("the answer is too large");
      const chunk = decoder.decode(value, { stream: true });
      if (!events) {
        text += chunk;
        continue;
      }
      for (const event of events.push(chunk)) {
        const message = parse(event.data) as { id?: unknown } | undefined;
        if (message?.id === id) return message;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return events ? undefined : parse(text + decoder.decode());
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

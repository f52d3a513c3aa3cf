// A studio in front of a real agent (scripted model, inline tools), with its API as another UI
// would call it and its live event feed.
import assert from "node:assert/strict";
import { type Agent, createAgent, defineTool, MemorySessionStore } from "@pseudoclaude/core";
import { ApprovalDesk, SpanRecorder, type Studio, startStudio } from "@pseudoclaude/studio";
import { ScriptedProvider, type ScriptedStep } from "@pseudoclaude/testing";
import { z } from "zod";

const lookup = defineTool({
  name: "lookup",
  description: "Looks a word up.",
  input: z.object({ word: z.string(), times: z.number().int().default(1) }),
  safety: "read_only",
  execute: ({ word }) => `${word}: a small word.`,
});

export const written: string[] = [];
const note = defineTool({
  name: "write_note",
  description: "Writes a note.",
  input: z.object({ text: z.string() }),
  safety: "side_effect",
  execute: ({ text }) => {
    written.push(text);
    return `noted: ${text}`;
  },
});

export let released: (() => void) | undefined;
const slow = defineTool({
  name: "slow",
  description: "Waits until cancelled.",
  input: z.object({}),
  safety: "read_only",
  execute: (_args, context) =>
    new Promise<string>((resolve) => {
      released = () => resolve("released");
      context.signal.addEventListener("abort", () => resolve("stopped"));
    }),
});

const SCRIPT: ScriptedStep[] = [
  { tool_calls: [{ id: "a1", name: "lookup", arguments: { word: "tea" } }] },
  { text: "Tea is a small word.", usage: { input_tokens: 12, output_tokens: 5 } },
  { tool_calls: [{ id: "s1", name: "slow", arguments: {} }] },
  { text: "never reached" },
];

export interface Feed {
  events: Array<Record<string, unknown>>;
  waitFor(test: (event: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  close(): void;
}

export interface StudioApi {
  agent: Agent;
  studio: Studio;
  desk: ApprovalDesk;
  spans: SpanRecorder;
  store: MemorySessionStore;
  /** A request to the studio with its token. */
  api: (path: string, init?: RequestInit) => Promise<Response>;
  /** Follows the live feed (`/api/events`) from now on. */
  feed(): Feed;
  close(): Promise<void>;
}

/**
 * An agent with `lookup`, `write_note` and `slow` on a scripted model (a lookup run, then a
 * slow one), approvals at a desk, sessions in memory, spans recorded, and a studio on it.
 */
export async function startStudioApi(): Promise<StudioApi> {
  const desk = new ApprovalDesk();
  const store = new MemorySessionStore();
  const spans = await SpanRecorder.start();
  // Whatever started before a failure is ended, so that the test process can exit.
  const agent = await createAgent({
    tools: [lookup, note, slow],
    provider: new ScriptedProvider(SCRIPT),
    config: false,
    approve: desk.approver,
    elicit: desk.elicitor,
    session: { store },
    tracing: { tracerProvider: spans.tracerProvider },
  }).catch(async (error: unknown) => {
    await spans.shutdown();
    throw error;
  });
  const studio = await startStudio({ agent, desk, spans }).catch(async (error: unknown) => {
    await agent.close();
    await spans.shutdown();
    throw error;
  });
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`http://127.0.0.1:${studio.port}${path}`, {
      ...init,
      headers: { "x-studio-token": studio.token, ...(init.headers ?? {}) },
    });

  function feed(): Feed {
    const controller = new AbortController();
    const events: Array<Record<string, unknown>> = [];
    const waiters: Array<() => void> = [];
    const done = (async () => {
      const response = await api("/api/events", { signal: controller.signal });
      assert.equal(response.headers.get("content-type"), "text/event-stream; charset=utf-8");
      const decoder = new TextDecoder();
      let buffer = "";
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (frame.startsWith("data: ")) events.push(JSON.parse(frame.slice(6)));
          for (const waiter of waiters.splice(0)) waiter();
          end = buffer.indexOf("\n\n");
        }
      }
    })().catch(() => {});
    void done;
    return {
      events,
      async waitFor(test) {
        for (;;) {
          const found = events.find(test);
          if (found) return found;
          await new Promise<void>((resolve) => waiters.push(resolve));
        }
      },
      close: () => controller.abort(),
    };
  }

  return {
    agent,
    studio,
    desk,
    spans,
    store,
    api,
    feed,
    async close() {
      await studio.close();
      await agent.close();
      await spans.shutdown();
    },
  };
}

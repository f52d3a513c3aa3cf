// agent.stream(): a run's events in order with their types, its text, cancellation through the
// iterator's return(), the SSE Response read by a real fetch client over HTTP (a client that
// disconnects cancels the run), and the AI SDK UI message stream read by the AI SDK's own
// reader (`ai`'s readUIMessageStream).
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { describe, it } from "node:test";
import {
  type AgentStreamEvent,
  createAgent,
  defineTool,
  type StreamResponseInit,
  UsageError,
} from "@pseudoclaude/core";
import { ScriptedProvider, type ScriptedStep } from "@pseudoclaude/testing";
import { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema } from "ai";
import { z } from "zod";

const forecast = defineTool({
  name: "get_forecast",
  description: "Forecast for a city.",
  input: z.object({ city: z.string() }),
  safety: "read_only",
  execute: ({ city }) => `Sunny in ${city}.`,
});

/** A tool that runs until its call is cancelled, and says when it was. */
function waitingTool(seen: { aborted: boolean }) {
  return defineTool({
    name: "wait",
    description: "Waits.",
    input: z.object({}),
    safety: "read_only",
    execute: (_args, context) =>
      new Promise<string>((resolve) => {
        context.signal.addEventListener("abort", () => {
          seen.aborted = true;
          resolve("stopped");
        });
      }),
  });
}

const WEATHER: ScriptedStep[] = [
  { tool_calls: [{ id: "c1", name: "get_forecast", arguments: { city: "Lisbon" } }] },
  { text: "It will be sunny in Lisbon." },
];

async function agentWith(steps: ScriptedStep[], tools = [forecast]) {
  return createAgent({ tools, provider: new ScriptedProvider(steps), config: false });
}

/** Serve one Response-returning handler over real HTTP, as a web framework would. */
async function serve(handler: () => Response): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    const answer = handler();
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    const body = Readable.fromWeb(answer.body as import("node:stream/web").ReadableStream);
    body.pipe(response);
    // The client went away: the web stream is cancelled, which cancels the run.
    response.on("close", () => body.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

async function stop(server: Server) {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** A UI message stream response's chunks, as the AI SDK parses and checks them. */
function uiChunks(response: Response) {
  return parseJsonEventStream({ stream: response.body!, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream({
      transform(parsed, controller) {
        if (!parsed.success) throw parsed.error;
        controller.enqueue(parsed.value);
      },
    }),
  );
}

function dataLines(text: string): unknown[] {
  return text
    .split("\n\n")
    .filter((frame) => frame.startsWith("data: "))
    .map((frame) => frame.slice("data: ".length))
    .map((data) => (data === "[DONE]" ? data : JSON.parse(data)));
}

describe("agent.stream()", () => {
  it("yields the run's events in order, typed by name, and resolves text and result", async () => {
    const agent = await agentWith(WEATHER);
    try {
      const stream = agent.stream("Weather in Lisbon?");
      const types: string[] = [];
      let toolName: string | undefined;
      let deltas = "";
      for await (const event of stream) {
        types.push(event.type);
        // The union narrows by `type`: these fields exist only on their events.
        if (event.type === "tool-call-end") toolName = event.record.name;
        if (event.type === "text-delta") deltas += event.text;
      }
      assert.equal(types[0], "run-start");
      assert.equal(types.at(-1), "run-end");
      const order = ["turn-start", "tool-call-start", "tool-decision", "tool-call-end", "turn-end"];
      let at = -1;
      for (const type of order) {
        const next = types.indexOf(type, at + 1);
        assert.ok(next > at, `${type} after the events before it in ${types.join(",")}`);
        at = next;
      }
      assert.equal(types.filter((type) => type === "turn-start").length, 2);
      assert.equal(toolName, "get_forecast");
      assert.equal(deltas, "It will be sunny in Lisbon.");
      assert.equal(await stream.text, "It will be sunny in Lisbon.");
      assert.equal((await stream.result).toolCalls.length, 1);
      assert.throws(
        () => stream[Symbol.asyncIterator](),
        (error: unknown) => error instanceof UsageError && error.code === "stream_consumed",
      );
    } finally {
      await agent.close();
    }
  });

  it("cancels the run when the loop is left early (the iterator's return())", {
    timeout: 20_000,
  }, async () => {
    const seen = { aborted: false };
    const agent = await agentWith(
      [{ tool_calls: [{ id: "w", name: "wait", arguments: {} }] }, { text: "never" }],
      [waitingTool(seen)],
    );
    try {
      const stream = agent.stream("wait");
      const types: AgentStreamEvent["type"][] = [];
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === "tool-call-start") break;
      }
      const result = await stream.result;
      assert.equal(result.stopReason, "aborted");
      assert.equal(seen.aborted, true, "the running tool saw the cancellation");
      assert.equal(types.at(-1), "tool-call-start");
      // The agent is free for the next run: the cancelled one has ended.
      assert.equal((await agent.run("again")).stopReason, "end_turn");
    } finally {
      await agent.close();
    }
  });

  it("serves the events as SSE that a fetch client reads over HTTP", async () => {
    const agent = await agentWith(WEATHER);
    const init: StreamResponseInit = { headers: { "x-run": "weather" } };
    const { url, server } = await serve(() => agent.stream("Weather?").toResponse(init));
    try {
      const response = await fetch(url);
      assert.equal(response.headers.get("content-type"), "text/event-stream");
      assert.equal(response.headers.get("x-run"), "weather");
      const events = dataLines(await response.text()) as AgentStreamEvent[];
      assert.equal(events[0]?.type, "run-start");
      const end = events.at(-1);
      assert.equal(end?.type, "run-end");
      assert.equal(end?.type === "run-end" ? end.text : "", "It will be sunny in Lisbon.");
      const call = events.find((event) => event.type === "tool-call-end");
      assert.deepEqual(call?.type === "tool-call-end" ? call.result.content : [], [
        { type: "text", text: "Sunny in Lisbon." },
      ]);
    } finally {
      await stop(server);
      await agent.close();
    }
  });

  // Bounded: a cancellation that waited for the running tool to end would hang here.
  it("cancels the run when the HTTP client disconnects", { timeout: 20_000 }, async () => {
    const seen = { aborted: false };
    const agent = await agentWith(
      [{ tool_calls: [{ id: "w", name: "wait", arguments: {} }] }, { text: "never" }],
      [waitingTool(seen)],
    );
    let stream: ReturnType<typeof agent.stream> | undefined;
    const { url, server } = await serve(() => {
      stream = agent.stream("wait");
      return stream.toResponse();
    });
    try {
      const client = new AbortController();
      const response = await fetch(url, { signal: client.signal });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = "";
      while (!text.includes('"tool-call-start"')) {
        const chunk = await reader.read();
        assert.equal(chunk.done, false, "the stream ended before the tool started");
        text += decoder.decode(chunk.value);
      }
      client.abort();
      const result = await stream!.result;
      assert.equal(result.stopReason, "aborted");
      assert.equal(seen.aborted, true);
    } finally {
      await stop(server);
      await agent.close();
    }
  });

  it("speaks the AI SDK UI message stream protocol, as the AI SDK reads it", async () => {
    const agent = await agentWith(WEATHER);
    try {
      const response = agent.stream("Weather in Lisbon?").toUIMessageStreamResponse();
      assert.equal(response.headers.get("x-vercel-ai-ui-message-stream"), "v1");
      const chunks = uiChunks(response);
      async function lastMessage() {
        let message: unknown;
        for await (const current of readUIMessageStream({ stream: chunks })) message = current;
        return message as { parts: Array<Record<string, unknown>> };
      }
      const last = await lastMessage();
      const tool = last.parts.find((part) => part.type === "tool-get_forecast");
      assert.equal(tool?.state, "output-available");
      assert.deepEqual(tool?.input, { city: "Lisbon" });
      assert.deepEqual(tool?.output, { content: [{ type: "text", text: "Sunny in Lisbon." }] });
      const text = last.parts.find((part) => part.type === "text");
      assert.equal(text?.text, "It will be sunny in Lisbon.");
      assert.equal(last.parts.filter((part) => part.type === "step-start").length, 2);
    } finally {
      await agent.close();
    }
  });

  it("streams a call's input as the model writes it, which the AI SDK shows as input-streaming", async () => {
    const agent = await agentWith([
      {
        tool_calls: [
          {
            id: "c1",
            name: "get_forecast",
            arguments: { city: "Lisbon" },
            stream_arguments: { piece_chars: 5 },
          },
        ],
      },
      { text: "Sunny." },
    ]);
    try {
      const pieces: string[] = [];
      agent.on("tool-input-delta", ({ id, name, delta }) => {
        assert.deepEqual([id, name], ["c1", "get_forecast"]);
        pieces.push(delta);
      });
      const chunks = uiChunks(agent.stream("Weather?").toUIMessageStreamResponse());
      const states: Array<[unknown, unknown]> = [];
      for await (const message of readUIMessageStream({ stream: chunks })) {
        const tool = message.parts.find((part) => part.type === "tool-get_forecast") as
          | { state: string; input?: unknown }
          | undefined;
        if (tool) states.push([tool.state, structuredClone(tool.input)]);
      }
      assert.deepEqual(pieces, ['{"cit', 'y":"L', "isbon", '"}']);
      // The AI SDK parsed the input as it came: a partial city before the whole one.
      assert.ok(
        states.some(
          ([state, input]) =>
            state === "input-streaming" && (input as { city?: string })?.city === "L",
        ),
        JSON.stringify(states),
      );
      assert.deepEqual(states.at(-1), ["output-available", { city: "Lisbon" }]);
    } finally {
      await agent.close();
    }
  });
});

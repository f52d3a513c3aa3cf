// The code of docs/streaming.md: compiled by CI, so the guide cannot go stale.
import { createAgent, defineTool } from "@pseudoclaude/core";
import { ScriptedProvider } from "@pseudoclaude/testing";
import { z } from "zod";

const agent = await createAgent({
  config: false,
  tools: [
    defineTool({
      name: "get_forecast",
      description: "Forecast for a city.",
      input: z.object({ city: z.string() }),
      safety: "read_only",
      execute: ({ city }) => `Sunny in ${city}.`,
    }),
  ],
  provider: new ScriptedProvider([
    { tool_calls: [{ name: "get_forecast", arguments: { city: "Lisbon" } }] },
    { text: "Sunny in Lisbon." },
  ]),
});

// #region iterate
for await (const event of agent.stream("Weather in Lisbon?")) {
  if (event.type === "text-delta") process.stdout.write(event.text);
  if (event.type === "tool-call-end") console.log(`\n${event.record.name}: ${event.result.ok}`);
  if (event.type === "run-end") console.log(`\n${event.usage.outputTokens ?? 0} tokens out`);
}
// #endregion

// #region handler
// A route handler of any framework that returns a web Response (Hono, Next.js, Bun, Deno).
export async function POST(request: Request): Promise<Response> {
  const { prompt } = (await request.json()) as { prompt: string };
  return agent.stream(prompt, { signal: request.signal }).toResponse();
}
// #endregion

// #region ui
// For a `useChat` front end of the AI SDK (`@ai-sdk/react`), with its default transport.
export async function chatRoute(request: Request): Promise<Response> {
  const { messages } = (await request.json()) as {
    messages: Array<{ parts: Array<{ type: string; text?: string }> }>;
  };
  const last = messages.at(-1)?.parts.find((part) => part.type === "text")?.text ?? "";
  return agent.stream(last).toUIMessageStreamResponse();
}
// #endregion

await agent.close();

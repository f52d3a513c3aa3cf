// "Write your own provider" (docs/write-a-provider.md) as a program CI runs: a tiny model
// that calls the first tool it is offered, then answers with what the tool said. It
// implements the kernel's Provider contract and nothing else; the agent around it is the same
// as with Anthropic or OpenAI.

import {
  createAgent,
  definePlugin,
  defineTool,
  ModelError,
  type Provider,
  textOf,
} from "@pseudoclaude/core";
import { type ContentKind } from "@pseudoclaude/core/plugin";
import {
  type Message,
  type ProviderEvent,
  type ProviderRequest,
} from "@pseudoclaude/core/provider";
import { InMemoryToolSource } from "@pseudoclaude/testing";
import { z } from "zod";

/** The "echo" model: one tool call per question, then an answer built from the result. */
class EchoProvider implements Provider {
  readonly name = "echo";
  readonly model = "echo-1";
  // This model reads only text in tool results: the kernel turns images and other kinds
  // into explicit placeholders before they reach `stream`, and counts them in the metadata.
  readonly toolResultContent: readonly ContentKind[] = ["text"];
  private calls = 0;

  async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
    if (request.signal?.aborted) return;
    const last = request.messages.at(-1);
    if (!last)
      throw new ModelError<"empty_conversation">(
        "empty_conversation",
        "The echo model needs a question.",
      );
    if (last.role === "tool") {
      // A real provider would send the whole conversation; this model reads the last results.
      const answer = `The tool says: ${resultsOfLastTurn(request.messages).join(" ")}`;
      for (const word of answer.split(/(?<= )/)) yield { type: "text-delta", text: word };
      yield {
        type: "usage",
        usage: { inputTokens: countWords(request), outputTokens: answer.split(" ").length },
      };
      yield { type: "stop", reason: "end_turn" };
      return;
    }
    const tool = request.tools[0];
    if (!tool) {
      yield { type: "text-delta", text: "I have no tools to ask." };
      yield { type: "stop", reason: "end_turn" };
      return;
    }
    // Ids link results to calls; a real API assigns them, here we count.
    this.calls += 1;
    const question = last.role === "user" && typeof last.content === "string" ? last.content : "";
    yield {
      type: "tool-call",
      call: { id: `echo_${this.calls}`, name: tool.name, arguments: { text: question } },
    };
    yield { type: "usage", usage: { inputTokens: countWords(request), outputTokens: 1 } };
    yield { type: "stop", reason: "tool_use" };
  }
}

function resultsOfLastTurn(messages: readonly Message[]): string[] {
  const texts: string[] = [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== "tool") break;
    texts.unshift(textOf(message.result.content));
  }
  return texts;
}

function countWords(request: ProviderRequest): number {
  return request.messages.reduce(
    (total, message) =>
      total +
      (message.role === "user" && typeof message.content === "string"
        ? message.content.split(" ").length
        : 0),
    0,
  );
}

const shout = definePlugin({
  name: "shout",
  register(context) {
    const tool = defineTool({
      name: "shout",
      description: "Repeat the text in capitals.",
      input: z.object({ text: z.string() }),
      safety: "read_only",
      source: "shout",
      execute: ({ text }) => text.toUpperCase(),
    });
    context.addToolSource(new InMemoryToolSource("shout", [tool]));
  },
});

// The one line that differs from an agent on Anthropic or OpenAI:
const agent = await createAgent({ provider: new EchoProvider(), plugins: [shout], config: false });
try {
  agent.on("tool-call-end", ({ record }) =>
    console.log(`> ${record.name} -> ${record.result.ok ? "ok" : "failed"}`),
  );
  const result = await agent.run("hello from a custom provider");
  console.log(result.text);
  if (
    result.text !== "The tool says: HELLO FROM A CUSTOM PROVIDER" ||
    result.stopReason !== "end_turn"
  ) {
    throw new Error(`Unexpected answer: ${JSON.stringify(result)}`);
  }
} finally {
  await agent.close();
}

// A long task that outgrows a small context window, offline: a scripted model reads ten
// pages; the agent shortens old tool results, then summarises old turns through the same
// model, and every request stays under the window.
import { createAgent, definePlugin, defineTool } from "@pseudoclaude/core";
import { InMemoryToolSource, ScriptedProvider, type ScriptedStep } from "@pseudoclaude/testing";
import { z } from "zod";

const page = defineTool({
  name: "read_page",
  description: "Read one page of the manual.",
  input: z.object({ page: z.number() }),
  safety: "read_only",
  source: "manual",
  execute: ({ page }) => `Page ${page}: ${"Lorem ipsum dolor sit amet. ".repeat(150)}`,
});

let read = 0;
const model: ScriptedStep = (request) => {
  if (request.system.startsWith("You summarise")) return { text: `Pages 1-${read} read.` };
  read += 1;
  return read <= 10
    ? {
        text: `Page ${read} next; noting what each page says. ${"Notes. ".repeat(60)}`,
        tool_calls: [{ name: "read_page", arguments: { page: read } }],
      }
    : { text: "All ten pages read." };
};

// #region window
const agent = await createAgent({
  config: false,
  // The model's window: providers declare it (Claude 200k, gpt-5 400k ...); here a tiny one.
  provider: new ScriptedProvider(Array(30).fill(model), { contextWindow: 6_000 }),
  plugins: [
    definePlugin({
      name: "manual",
      register: (context) => void context.addToolSource(new InMemoryToolSource("manual", [page])),
    }),
  ],
});
agent.on("compaction", ({ stage, tokensBefore, tokensAfter }) =>
  console.log(`compacted (${stage}): ~${tokensBefore} -> ~${tokensAfter} tokens`),
);
// #endregion
let largest = 0;
agent.on("turn-start", ({ estimatedTokens }) => {
  largest = Math.max(largest, estimatedTokens);
});
const result = await agent.run("Read the manual, all ten pages.", { maxTurns: 30 });
console.log(`${result.text} Largest request: ~${largest} tokens of 6000.`);
await agent.close();
if (largest > 6_000 * 0.8) throw new Error("a request went over the threshold");

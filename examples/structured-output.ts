// A typed result, offline: the model uses a tool, answers with JSON that misses the schema,
// is sent the issues once, and repairs it; `result.output` is typed from the zod schema.
import { createAgent, definePlugin, defineTool } from "@pseudoclaude/core";
import { InMemoryToolSource, ScriptedProvider } from "@pseudoclaude/testing";
import { z } from "zod";

// #region schema
const Forecast = z.object({
  city: z.string().min(1),
  celsius: z.number(),
  advice: z.enum(["umbrella", "sunglasses"]),
});
// #endregion

const weather = defineTool({
  name: "get_forecast",
  description: "Today's forecast for a city.",
  input: z.object({ city: z.string() }),
  safety: "read_only",
  source: "weather",
  execute: ({ city }) => `Sunny in ${city}, 21°C.`,
});

const agent = await createAgent({
  config: false,
  plugins: [
    definePlugin({
      name: "weather",
      register: (context) =>
        void context.addToolSource(new InMemoryToolSource("weather", [weather])),
    }),
  ],
  provider: new ScriptedProvider([
    { tool_calls: [{ name: "get_forecast", arguments: { city: "Lisbon" } }] },
    // Misses the schema: no advice, celsius as text. The kernel sends the issues back once.
    { output: { city: "Lisbon", celsius: "21" } },
    { output: { city: "Lisbon", celsius: 21, advice: "sunglasses" } },
  ]),
});
agent.on("output-repair", ({ issues }) =>
  console.log(
    `repair asked: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ")}`,
  ),
);
// #region run
const result = await agent.run("What should I take in Lisbon today?", { output: Forecast });
const advice: "umbrella" | "sunglasses" = result.output.advice; // typed from the schema
// #endregion
console.log(`${result.output.city}: ${result.output.celsius}°C, take ${advice}`);
await agent.close();
if (advice !== "sunglasses") throw new Error("unexpected output");

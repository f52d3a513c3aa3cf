// The README's "compose an agent" example: a scripted model, one inline tool, one run.
import { createAgent, defineTool } from "@pseudoclaude/core";
import { ScriptedProvider } from "@pseudoclaude/provider-scripted";
import { z } from "zod";

const forecast = defineTool({
  name: "get_forecast",
  description: "Forecast for a city.",
  input: z.object({ city: z.string() }),
  safety: "read_only",
  execute: ({ city }) => `Sunny in ${city}, 21°C.`,
});

const agent = await createAgent({
  tools: [forecast],
  provider: new ScriptedProvider([
    { tool_calls: [{ name: "get_forecast", arguments: { city: "Lisbon" } }] },
    { text: "It will be sunny in Lisbon." },
  ]),
  config: false,
});
agent.on("tool-call-end", ({ record }) =>
  console.log(`${record.name} -> ${record.result.content[0]?.type}`),
);
const result = await agent.run("Weather in Lisbon?");
console.log(result.text);
await agent.close();

// The example of this package's README.md: compiled by CI, so the README npm shows cannot go stale.
import { createAgent, definePlugin, defineTool } from "@pseudoclaude/core";
import { StaticToolSource } from "@pseudoclaude/core/plugin";
import { ScriptedProvider } from "@pseudoclaude/provider-scripted";
import { z } from "zod";

const clock = definePlugin({
  name: "clock",
  register(context) {
    const now = defineTool({
      name: "now",
      description: "The current time, ISO 8601.",
      input: z.object({}),
      safety: "read_only",
      source: "clock",
      execute: () => new Date().toISOString(),
    });
    context.addToolSource(new StaticToolSource("clock", [now]));
  },
});
const agent = await createAgent({
  plugins: [clock],
  // A scripted model for the example; anthropic() or openai() in an app.
  provider: new ScriptedProvider([{ tool_calls: [{ name: "now" }] }, { text: "It is late." }]),
});
const result = await agent.run("What time is it?");
console.log(result.text);
await agent.close();

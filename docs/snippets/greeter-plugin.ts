// The code of docs/author-a-plugin.md: compiled by CI, so the guide cannot go stale.
// #region plugin
import { definePlugin, defineTool } from "@pseudoclaude/core";
import { StaticToolSource, validateSection } from "@pseudoclaude/core/plugin";
import { z } from "zod";

const sectionSchema = z.object({ greeting: z.string().default("Hello") }).strict();

export function greeter() {
  return definePlugin({
    name: "greeter",
    register(context) {
      let greeting = "Hello";
      for (const entry of context.config.section("greeter")) {
        // user layer, then project
        const checked = validateSection(sectionSchema, entry, {
          sectionKey: "greeter",
          source: "greeter",
        });
        if (checked.ok) greeting = checked.value.greeting;
        else for (const d of checked.diagnostics) context.report(d); // file:line:column, not a crash
      }
      const greet = defineTool({
        name: "greet",
        description: "Greet someone by name.",
        input: z.object({ name: z.string() }), // JSON Schema generated once; args validated
        safety: "read_only",
        source: "greeter",
        execute: ({ name }) => `${greeting}, ${name}!`,
      });
      context.addToolSource(new StaticToolSource("greeter", [greet]));
      context.addSystemPromptSection({
        id: "greeter",
        title: "Greetings",
        content: "Use greet to greet people.",
      });
    },
  });
}
// #endregion

// A system prompt section hears when the budget cuts it: truncated (with how much was sent) or
// left out, once per change rather than once per request, and again when the cut changes.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createAgent, definePlugin } from "@pseudoclaude/core";
import type { SystemPromptSection } from "@pseudoclaude/core/plugin";

type Cut = Parameters<NonNullable<SystemPromptSection["onCut"]>>[0];

describe("system prompt sections cut by the budget", () => {
  it("are told once per change: truncated, left out, and whole again says nothing", async () => {
    const heard: Record<string, Cut[]> = { first: [], second: [], small: [] };
    let grow: ((content: string) => void) | undefined;
    const agent = await createAgent({
      config: false,
      systemPromptBudget: { totalChars: 100 },
      plugins: [
        definePlugin({
          name: "sections",
          register(context) {
            const add = (id: string, content: string, order: number) =>
              context.addSystemPromptSection({
                id,
                title: id,
                content,
                maxChars: 1000,
                order,
                onCut: (cut) => heard[id]?.push(cut),
              });
            add("small", "fits", 1);
            add("first", "a".repeat(150), 2);
            add("second", "b".repeat(10), 3);
            grow = (content) => add("first", content, 2);
          },
        }),
      ],
    });
    try {
      const prompt = agent.systemPrompt();
      agent.systemPrompt();
      assert.match(prompt, /a{96}\n\[\.\.\. 54 more characters cut/);
      assert.deepEqual(heard.small, []);
      assert.deepEqual(heard.first, [{ kind: "truncated", chars: 150, shownChars: 96 }]);
      assert.deepEqual(heard.second, [{ kind: "omitted", chars: 10 }], "told once, not per build");
      // A shorter section fits again: the second is whole and nothing more is said of it.
      grow?.("a".repeat(20));
      assert.match(agent.systemPrompt(), /b{10}/);
      assert.equal(heard.first?.length, 1);
      assert.equal(heard.second?.length, 1);
    } finally {
      await agent.close();
    }
  });
});

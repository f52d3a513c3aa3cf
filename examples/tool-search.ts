// Tool search (docs/tool-search.md): 200 tools that ask to be deferred, a model that sees two
// tools, searches, and calls what it found. Offline: a scripted model plays the turns.
import assert from "node:assert/strict";
import { createAgent, defineTool, type Tool } from "@pseudoclaude/core";
import { ScriptedProvider } from "@pseudoclaude/provider-scripted";
import { z } from "zod";

// #region deferred
const services = ["calendar", "crm", "billing", "tickets", "wiki"];
const tools: Tool[] = services.flatMap((service) =>
  Array.from({ length: 40 }, (_, n) =>
    defineTool({
      name: `${service}_action_${n}`,
      description: `Action ${n} on the ${service} service.`,
      input: z.object({ id: z.string() }),
      safety: "read_only",
      deferLoading: true, // found through tool search, never sent up front
      execute: ({ id }) => `${service} action ${n} on ${id}: done`,
    }),
  ),
);
const today = defineTool({
  name: "today",
  description: "Today's date.",
  input: z.object({}),
  safety: "read_only",
  execute: () => "2026-12-07",
});
// #endregion

// #region agent
const agent = await createAgent({
  tools: [today, ...tools],
  toolSearch: { mode: "auto", maxResults: 3 },
  provider: new ScriptedProvider([
    { tool_calls: [{ name: "tool_search", arguments: { query: "calendar action 7" } }] },
    { tool_calls: [{ name: "calendar_action_7", arguments: { id: "standup" } }] },
    { text: "Done." },
  ]),
  config: false,
});
agent.on("turn-start", ({ turn, tools, deferredTools, toolTokens }) =>
  console.log(
    `turn ${turn}: ${tools.join(", ")} (~${toolTokens} tokens; ${deferredTools} deferred)`,
  ),
);
agent.on("tool-search", ({ query, found }) =>
  console.log(`searched "${query}" -> ${found.join(", ")}`),
);
await agent.run("Run calendar action 7 on the standup.");
const offer = agent.toolOffer();
console.log(
  `${offer.engine} search: ${offer.found.length} found, ${offer.deferred.length} deferred`,
);
// #endregion
assert.equal(offer.engine, "local");
assert.ok(offer.found.some((tool) => tool.name === "calendar_action_7"));
await agent.close();

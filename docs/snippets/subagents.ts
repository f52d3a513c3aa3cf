// The code of docs/subagents.md: compiled by CI, so the guide cannot go stale.
import { createAgent, subAgent } from "@pseudoclaude/core";
import { builtinTools } from "@pseudoclaude/plugin-builtin-tools";

// #region define
const reviewer = subAgent({
  name: "reviewer",
  description: "Reviews a change for bugs. Give it the files to look at.",
  instructions: "You review code. Read the files you are given and list concrete bugs only.",
  tools: ["read_file", "grep", "glob"], // never more than the parent has
  maxTurns: 10,
});
const agent = await createAgent({ plugins: [builtinTools(), reviewer] });
// The parent's model now has a tool agent__reviewer({ prompt }).
// #endregion

// #region events
agent.on("tool-call-end", ({ call, via }) => {
  const who = via ? `${"  ".repeat(via.depth)}${via.agent} (in ${via.parentCallId})` : "main";
  console.log(`${who}: ${call.name}`);
});
// #endregion
await agent.close();

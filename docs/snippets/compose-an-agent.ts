// The code of docs/compose-an-agent.md: compiled by CI, so the guide cannot go stale.
// #region compose
import { createAgent } from "@pseudoclaude/core";
import { ScriptedProvider } from "@pseudoclaude/testing";

const agent = await createAgent({
  workspace: process.cwd(), // config layers and tool paths are relative to it
  provider: new ScriptedProvider([{ text: "hello" }]), // or a real provider plugin
  plugins: [
    /* mcp(), builtinTools(), skills(), your own definePlugin(...) */
  ],
  policy: { mode: "default", allow: ["mcp__context7__*"], deny: ["run_command(rm *)"] },
  approve: (_request) => "allow", // for "ask" (may be async); absent = deny
  systemPrompt: "You are a careful assistant.",
});
agent.on("tool-call-end", ({ record }) =>
  console.log(record.name, record.decision.verdict, record.result.ok),
);
const result = await agent.run("question", { signal: AbortSignal.timeout(60_000) });
console.log(result.text, result.stopReason, result.toolCalls.length);
await agent.close(); // closes sources, ends child processes
// #endregion

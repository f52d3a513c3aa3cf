// One remote tool's journey, offline: a real MCP server (the reference "everything" server over
// stdio) -> discovery -> mcp__everything__echo in the registry -> a scripted model calls it ->
// policy -> tools/call with the remote name `echo` -> the result back in the conversation.
import { createRequire } from "node:module";
import { createAgent, textOf } from "@pseudoclaude/core";
import { mcp } from "@pseudoclaude/plugin-mcp";
import { ScriptedProvider } from "@pseudoclaude/testing";

const everything = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/server-everything/dist/index.js",
);

const agent = await createAgent({
  config: false,
  plugins: [
    mcp({ servers: { everything: { command: process.execPath, args: [everything, "stdio"] } } }),
  ],
  provider: new ScriptedProvider([
    { tool_calls: [{ name: "mcp__everything__echo", arguments: { message: "hello over MCP" } }] },
    { text: "The server echoed my message." },
  ]),
  // Remote tools are side_effect until you trust them: allow this one server's tools by rule.
  policy: { allow: ["mcp__everything__*"] },
});
agent.on("tool-call-end", ({ record }) =>
  console.log(`${record.name} [${record.decision.verdict}] -> ${textOf(record.result.content)}`),
);
const result = await agent.run("Echo something through MCP.");
console.log(result.text);
const stats = agent.sources().find((source) => source.id === "mcp:everything")?.status.stats;
console.log(`server stats: ${JSON.stringify(stats)}`);
await agent.close();
if (!result.toolCalls[0]?.result.ok) process.exit(1);

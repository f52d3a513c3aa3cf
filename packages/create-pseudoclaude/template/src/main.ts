// `npm start`: runs the agent of src/agent.ts on this folder. The model is chosen by
// PSEUDOCLAUDE_PROVIDER ("openai", "anthropic:claude-sonnet-5-5"), else by the API key that is
// set, else by the config's provider.name; with none of them, a scripted model plays the steps
// offline so the app runs on any machine.
import { readFile, realpath } from "node:fs/promises";
import { type Agent, PseudoClaudeError, textOf } from "@pseudoclaude/core";
import { createStarterAgent } from "./agent.js";
import { DEMO_TASK, offlineModel } from "./offline-model.js";

function providerFromEnv(): string | undefined {
  if (process.env.PSEUDOCLAUDE_PROVIDER) return process.env.PSEUDOCLAUDE_PROVIDER;
  if (process.env.ANTHROPIC_API_KEY) return "anthropic";
  if (process.env.OPENAI_API_KEY) return "openai";
  return undefined;
}

async function main(): Promise<void> {
  // Real path: the filesystem server compares the paths it is given with its allowed folder.
  const workspace = await realpath(process.cwd());
  const task = process.argv.slice(2).join(" ") || DEMO_TASK;
  let agent: Agent = await createStarterAgent({ workspace, provider: providerFromEnv() });
  if (!agent.provider) {
    // Nothing chose a model: start again with the scripted one, and say so.
    await agent.close();
    const readme = await readFile("README.md", "utf8").catch(() => "");
    agent = await createStarterAgent({ workspace, provider: offlineModel(workspace, readme) });
    console.log(
      "Offline demo: no model is configured, so a scripted one plays the steps.\nFor a real model: ANTHROPIC_API_KEY=... npm start (or OPENAI_API_KEY=...).\n",
    );
  }
  try {
    agent.on("tool-call-end", ({ record }) => {
      const status = record.result.ok ? "ok" : `failed (${record.result.error.code})`;
      const first = textOf(record.result.content).split("\n")[0] ?? "";
      console.log(`  ${record.name} [${record.decision.verdict}] ${status}: ${first.slice(0, 80)}`);
    });
    console.log(`user> ${task}\n`);
    const result = await agent.run(task);
    console.log(`\nassistant> ${result.text}`);
    if (result.stopReason !== "end_turn") process.exitCode = 1;
  } finally {
    await agent.close();
  }
}

try {
  await main();
} catch (error) {
  if (!PseudoClaudeError.is(error)) throw error;
  // A failure the framework knows (no API key, an endpoint that does not answer, a config
  // mistake): its message says what to do, a stack trace would not.
  console.error(`${error.name} (${error.code}): ${error.message}`);
  process.exitCode = 1;
}

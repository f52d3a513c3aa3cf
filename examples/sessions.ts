// A conversation saved and picked up again, offline: one agent answers and closes; a second
// agent (as a new process would) opens the same session and the model sees what was said.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createAgent, FileSessionStore } from "@pseudoclaude/core";
import { ScriptedProvider } from "@pseudoclaude/testing";

const home = await mkdtemp(path.join(os.tmpdir(), "pseudoclaude-sessions-example-"));
const workspace = process.cwd();
// #region store
// The default store: JSONL files under ~/.PseudoClaude/sessions/<workspace>/ (here a temp home).
const store = new FileSessionStore({ workspace, homeDir: home });
// #endregion

// #region first
const first = await createAgent({
  config: false,
  session: { id: "trip-planning", store },
  provider: new ScriptedProvider([{ text: "Noted: you fly to Lisbon on Friday." }]),
});
await first.run("I fly to Lisbon on Friday.");
await first.close();
// #endregion

// #region resume
const later = await createAgent({
  config: false,
  session: { id: "trip-planning", store },
  provider: new ScriptedProvider([
    // The scripted model checks that it was given the earlier conversation.
    { expect: { messages_include: ["Lisbon on Friday"] }, text: "Friday, to Lisbon." },
  ]),
});
const result = await later.run("When do I fly, and where?");
console.log(`${later.sessionId}: ${result.text}`);
// #endregion
for (const session of await store.list())
  console.log(`${session.id}: ${session.turns} turns, first prompt "${session.firstPrompt}"`);
await later.close();
await rm(home, { recursive: true, force: true });

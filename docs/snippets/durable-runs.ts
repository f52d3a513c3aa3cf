// The code of docs/durable-runs.md: compiled by CI, so the guide cannot go stale.
import { createAgent } from "@pseudoclaude/core";
import { MemoryJournal, ScriptedProvider } from "@pseudoclaude/testing";

const agent = await createAgent({ provider: new ScriptedProvider([{ text: "released" }]) });
// #region run
const journal = new MemoryJournal(); // or a durable engine's journal
const result = await agent.run("release 1.2", { journal });
// #endregion
console.log(result.text, [...journal.records.keys()]);
await agent.close();

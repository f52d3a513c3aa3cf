// What a model would do for the demo task, played back without a network: `npm start` uses it
// when no API key or config chooses a real model, and the test uses it to run the whole agent
// offline and deterministically.
import { ScriptedProvider } from "@pseudoclaude/provider-scripted";

export const DEMO_TASK =
  "Give me a tour of this project: list its files, load the project-tour skill and count the words of README.md.";

export function offlineModel(workspace: string, readme: string): ScriptedProvider {
  return new ScriptedProvider([
    {
      // Fails the run loudly if the skill index did not reach the model.
      expect: { system_includes: ["- project-tour:"] },
      tool_calls: [{ name: "mcp__filesystem__list_directory", arguments: { path: workspace } }],
    },
    { tool_calls: [{ name: "load_skill", arguments: { name: "project-tour" } }] },
    { tool_calls: [{ name: "word_count", arguments: { text: readme } }] },
    {
      text: "This is a PseudoClaude starter: an agent in src/, a skill in skills/, a test in test/.",
    },
  ]);
}

// A skill's journey, offline: a real Agent Skills folder (examples/skills/release-checklist)
// -> the index in the system prompt -> a scripted model loads the skill -> reads its reference
// -> runs its script, pre-approved by the skill's allowed-tools -> the answer.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createAgent, textOf } from "@pseudoclaude/core";
import { skills } from "@pseudoclaude/plugin-skills";
import { ScriptedProvider } from "@pseudoclaude/testing";

// From examples/dist to examples/skills: a folder of skills named in code (layer "code").
const skillFolder = fileURLToPath(new URL("../skills", import.meta.url));
const workspace = await mkdtemp(path.join(os.tmpdir(), "pseudoclaude-skills-example-"));
await writeFile(
  path.join(workspace, "CHANGELOG.md"),
  "## 1.2.0 - 2026-12-01\n- Skills plugin.\n\n## 1.1.0 - 2026-11-01\n- MCP over HTTP.\n",
);

const agent = await createAgent({
  workspace,
  config: false,
  plugins: [skills({ paths: [skillFolder], watch: false })],
  provider: new ScriptedProvider([
    {
      // The model was given the index: fail loudly if it was not.
      expect: { system_includes: ["- release-checklist: Check that a release is ready"] },
      tool_calls: [{ name: "load_skill", arguments: { name: "release-checklist" } }],
    },
    {
      tool_calls: [
        {
          name: "read_skill_file",
          arguments: { skill: "release-checklist", path: "references/changelog-format.md" },
        },
      ],
    },
    {
      expect: { tools: ["skill__release-checklist__check-changelog"] },
      tool_calls: [
        { name: "skill__release-checklist__check-changelog", arguments: { args: ["1.2.0"] } },
      ],
    },
    { text: "Release 1.2.0 is ready: the changelog has its entry." },
  ]),
});
agent.on("tool-call-end", ({ record }) =>
  console.log(
    `${record.name} [${record.decision.verdict}: ${record.decision.matched.kind}] -> ${textOf(record.result.content).split("\n")[0]}`,
  ),
);
try {
  const result = await agent.run("Is release 1.2.0 ready?");
  console.log(result.text);
  if (result.stopReason !== "end_turn" || !result.toolCalls.every((call) => call.result.ok))
    process.exitCode = 1;
} finally {
  await agent.close();
  await rm(workspace, { recursive: true, force: true });
}

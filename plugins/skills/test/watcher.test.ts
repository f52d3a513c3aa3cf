import assert from "node:assert/strict";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import type { ToolDefinition } from "@pseudoclaude/core";
import { ScriptedProvider } from "@pseudoclaude/testing";
import type { SkillInfo, SkillsManager } from "../src/index.js";
import { skillAgent, withWorkspace, writeSkill } from "./support/skill-agent.js";

const enumOf = (definition: ToolDefinition | undefined) =>
  (definition?.inputSchema.properties as { name?: { enum?: string[] } } | undefined)?.name?.enum;

/** Resolve on the first `changed` event whose skills satisfy `test` (or fail after 5 s). */
function changed(
  manager: SkillsManager,
  test: (skills: readonly SkillInfo[]) => boolean,
): Promise<readonly SkillInfo[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      manager.off("changed", listener);
      reject(
        new Error(
          `no matching change; skills now: ${JSON.stringify(manager.list().map((s) => [s.name, s.state, s.description]))}`,
        ),
      );
    }, 5_000);
    const listener = ({ skills }: { skills: readonly SkillInfo[] }) => {
      if (!test(skills)) return;
      clearTimeout(timer);
      manager.off("changed", listener);
      resolve(skills);
    };
    manager.on("changed", listener);
  });
}

const watchers = () =>
  process.getActiveResourcesInfo().filter((kind) => kind === "FSEventWrap").length;

/** Watcher handles are released a moment after `close()`: wait up to a second for the count. */
async function watchersSettleAt(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50 && watchers() !== count; attempt++)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return watchers();
}

describe("watching the skill folders", () => {
  it("follows a skill that is added, changed and removed while the agent runs", async () => {
    await withWorkspace(async (workspace) => {
      const root = path.join(workspace.root, ".claude/skills");
      await writeSkill(root, "first", { name: "first", description: "The first." });
      const before = watchers();
      const { agent, manager } = await skillAgent(workspace, { watch: true });
      const replaced: string[] = [];
      agent.registry.on("tool-replaced", ({ definition }) => replaced.push(definition.name));
      try {
        assert.ok(watchers() > before, "the folders are watched");
        const added = changed(manager, (skills) => skills.some((skill) => skill.name === "second"));
        await writeSkill(root, "second", { name: "second", description: "The second." }, "Body.", {
          "go.sh": "#!/bin/sh\necho go\n",
        });
        await added;
        assert.deepEqual(enumOf(agent.registry.get("load_skill")?.definition), ["first", "second"]);
        assert.ok(replaced.includes("load_skill"), "the registry announced the new enum");
        assert.match(agent.systemPrompt(), /- second: The second\./);

        const edited = changed(manager, (skills) =>
          skills.some((skill) => skill.description === "Second, edited."),
        );
        await writeSkill(
          root,
          "second",
          { name: "second", description: "Second, edited." },
          "Body.",
          {
            "go.sh": "#!/bin/sh\necho go\n",
          },
        );
        await edited;
        assert.match(agent.systemPrompt(), /- second: Second, edited\./);
        assert.doesNotMatch(agent.systemPrompt(), /The second\./);

        await manager.load("second");
        assert.ok(agent.registry.get("skill__second__go"));
        const unloaded = new Promise<string>((resolve) =>
          manager.on("unloaded", ({ skill, reason }) => resolve(`${skill.name} ${reason}`)),
        );
        const removed = changed(
          manager,
          (skills) => !skills.some((skill) => skill.name === "second"),
        );
        await rm(path.join(root, "second"), { recursive: true });
        await removed;
        assert.equal(await unloaded, "second removed");
        assert.equal(agent.registry.get("skill__second__go"), undefined, "its tools went with it");
        assert.deepEqual(enumOf(agent.registry.get("load_skill")?.definition), ["first"]);
      } finally {
        await agent.close();
      }
      assert.equal(await watchersSettleAt(before), before, "no watcher outlives agent.close()");
    });
  });

  it("notices a skills folder created after the agent started", async () => {
    await withWorkspace(async (workspace) => {
      const { agent, manager } = await skillAgent(workspace, { watch: true });
      try {
        assert.equal(agent.registry.get("load_skill"), undefined);
        const appeared = changed(manager, (skills) =>
          skills.some((skill) => skill.name === "late"),
        );
        await mkdir(path.join(workspace.root, ".agents"));
        await new Promise((resolve) => setTimeout(resolve, 300));
        await writeSkill(path.join(workspace.root, ".agents/skills"), "late", {
          name: "late",
          description: "Came late.",
        });
        await appeared;
        assert.deepEqual(enumOf(agent.registry.get("load_skill")?.definition), ["late"]);
      } finally {
        await agent.close();
      }
    });
  });

  it("does not break a model turn in progress when a skill appears during it", async () => {
    await withWorkspace(async (workspace) => {
      const root = path.join(workspace.root, ".claude/skills");
      // The script writes a new skill while its own call is running, then waits past the debounce.
      await writeSkill(
        root,
        "maker",
        { name: "maker", description: "Makes a skill." },
        "Run make.",
        {
          "make.sh": `#!/bin/sh\nmkdir -p "${root}/made"\nprintf -- '---\\nname: made\\ndescription: Made mid-turn.\\n---\\nMade.\\n' > "${root}/made/SKILL.md"\nsleep 1\necho made\n`,
        },
      );
      const provider = new ScriptedProvider([
        { tool_calls: [{ name: "load_skill", arguments: { name: "maker" } }] },
        { tool_calls: [{ name: "skill__maker__make", arguments: {} }] },
        {
          expect: { system_includes: ["- made: Made mid-turn."] },
          tool_calls: [{ name: "load_skill", arguments: { name: "made" } }],
        },
        { text: "done" },
      ]);
      const { agent } = await skillAgent(
        workspace,
        { watch: true },
        { provider, policy: { mode: "bypass" } },
      );
      try {
        const result = await agent.run("make a skill, then use it");
        assert.equal(result.stopReason, "end_turn");
        assert.deepEqual(
          result.toolCalls.map((call) => [call.name, call.result.ok]),
          [
            ["load_skill", true],
            ["skill__maker__make", true],
            ["load_skill", true],
          ],
        );
        const loaded = result.toolCalls[2]?.result;
        assert.match(loaded?.content[0]?.type === "text" ? loaded.content[0].text : "", /Made\./);
      } finally {
        await agent.close();
      }
    });
  });

  it("watches nothing when skills.watch is false", async () => {
    await withWorkspace(async (workspace) => {
      await writeFile(path.join(workspace.root, "x"), "");
      const before = watchers();
      const { agent } = await skillAgent(workspace, { watch: false });
      try {
        assert.equal(watchers(), before);
      } finally {
        await agent.close();
      }
    });
  });
});

import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";
import type { ToolDefinition } from "@pseudoclaude/core";
import { copySkills } from "./support/fixtures.js";
import { skillAgent, withWorkspace, writeSkill } from "./support/skill-agent.js";

const enumOf = (definition: ToolDefinition | undefined) =>
  (definition?.inputSchema.properties as { name?: { enum?: string[] } } | undefined)?.name?.enum;

describe("the index and load_skill", () => {
  it("offers load_skill with an enum of the skills the model may load", async () => {
    await withWorkspace(async (workspace) => {
      const root = path.join(workspace.root, ".claude/skills");
      await copySkills(root, ["pdf-processing", "release-notes", "commit-helper", "bad-yaml"]);
      await workspace.writeConfig("project", "skills:\n  disabled: [commit-helper]\n");
      const { agent } = await skillAgent(workspace);
      try {
        const load = agent.registry.get("load_skill")?.definition;
        assert.deepEqual(
          enumOf(load),
          ["pdf-processing"],
          "not disabled, invalid or model-disabled ones",
        );
        assert.equal(load?.safety, "read_only");
        assert.deepEqual(
          agent.offeredTools().map((tool) => tool.name),
          ["load_skill", "read_skill_file", "unload_skill"],
        );
        const prompt = agent.systemPrompt();
        assert.match(prompt, /- pdf-processing: Extract text and tables/);
        assert.doesNotMatch(prompt, /release-notes|commit-helper|bad-yaml/);
        const refused = await agent.callTool("load_skill", { name: "release-notes" });
        assert.equal(refused.result.ok ? "" : refused.result.error.code, "invalid_arguments");
      } finally {
        await agent.close();
      }
    });
  });

  it("keeps the index within its budget and counts the skills left out", async () => {
    await withWorkspace(async (workspace) => {
      const root = path.join(workspace.root, ".claude/skills");
      for (let index = 0; index < 30; index++) {
        const name = `skill-${String(index).padStart(2, "0")}`;
        await writeSkill(root, name, {
          name,
          description: `Does task number ${index}, ${"with care ".repeat(8)}`,
        });
      }
      const { agent } = await skillAgent(workspace, { indexBudgetChars: 1_000 });
      try {
        const prompt = agent.systemPrompt();
        const listed = prompt.split("\n").filter((line) => line.startsWith("- skill-"));
        assert.ok(listed.length > 0 && listed.length < 30, `${listed.length} listed`);
        assert.ok(listed.join("\n").length <= 1_000, "entries stay within the budget");
        const omitted = 30 - listed.length;
        assert.match(
          prompt,
          new RegExp(
            `\\[${omitted} more skills not listed here \\(the index is over its 1000-character budget\\)`,
          ),
        );
        const warning = agent
          .diagnostics()
          .find((diagnostic) => diagnostic.code === "skills_index_truncated");
        assert.match(warning?.message ?? "", new RegExp(`lists ${listed.length} of 30 skills`));
        assert.equal(
          enumOf(agent.registry.get("load_skill")?.definition)?.length,
          30,
          "every one is still loadable",
        );
      } finally {
        await agent.close();
      }
    });
  });

  it("returns the body, the folder and the bundled files with sizes, and turns the scripts on", async () => {
    await withWorkspace(async (workspace) => {
      const root = path.join(workspace.root, ".claude/skills");
      await copySkills(root, ["pdf-processing"]);
      const { agent, manager } = await skillAgent(workspace);
      const registryEvents: string[] = [];
      agent.registry.on("tool-added", ({ definition }) =>
        registryEvents.push(`+${definition.name}`),
      );
      agent.registry.on("tool-removed", ({ definition }) =>
        registryEvents.push(`-${definition.name}`),
      );
      const managerEvents: string[] = [];
      manager.on("loaded", ({ skill, by, tools }) =>
        managerEvents.push(`loaded ${skill.name} by ${by}: ${tools.join(",")}`),
      );
      manager.on("unloaded", ({ skill, reason }) =>
        managerEvents.push(`unloaded ${skill.name} (${reason})`),
      );
      try {
        const outcome = await agent.callTool("load_skill", { name: "pdf-processing" });
        assert.equal(outcome.decision.verdict, "allow");
        assert.ok(outcome.result.ok);
        const text =
          outcome.result.content[0]?.type === "text" ? outcome.result.content[0].text : "";
        assert.match(text, /Procedure:\n\n# PDF processing/);
        assert.doesNotMatch(text, /allowed-tools:|^---$/m, "front matter removed");
        const structured = outcome.result.structured as {
          dir: string;
          files: Array<{ path: string; size: number; tool?: string }>;
          tools: string[];
        };
        assert.equal(structured.dir, path.join(root, "pdf-processing"));
        assert.deepEqual(
          structured.files.map((file) => [file.path, file.tool ?? null]),
          [
            ["references/REFERENCE.md", null],
            ["scripts/extract.sh", "skill__pdf-processing__extract"],
            ["scripts/helpers.py", null],
          ],
        );
        assert.ok(structured.files.every((file) => file.size > 0));
        assert.deepEqual(structured.tools, ["skill__pdf-processing__extract"]);
        assert.deepEqual(registryEvents, ["+skill__pdf-processing__extract"]);
        const script = agent.registry.get("skill__pdf-processing__extract")?.definition;
        assert.equal(script?.safety, "side_effect");
        assert.match(
          script?.description ?? "",
          /Print what a PDF would hold/,
          "the script's own comment",
        );
        assert.equal(manager.get("pdf-processing")?.state, "loaded");

        const version = agent.registry.version;
        const again = await agent.callTool("load_skill", { name: "pdf-processing" });
        assert.match(
          again.result.content[0]?.type === "text" ? again.result.content[0].text : "",
          /already loaded/,
        );
        assert.equal(agent.registry.version, version, "loading again adds nothing");

        const unloaded = await agent.callTool("unload_skill", { name: "pdf-processing" });
        assert.ok(unloaded.result.ok);
        assert.deepEqual(registryEvents, [
          "+skill__pdf-processing__extract",
          "-skill__pdf-processing__extract",
        ]);
        assert.equal(manager.get("pdf-processing")?.state, "available");
        const twice = await agent.callTool("unload_skill", { name: "pdf-processing" });
        assert.match(
          twice.result.ok ? "" : twice.result.error.message,
          /is not loaded \(loaded: none\)/,
        );
        assert.deepEqual(managerEvents, [
          "loaded pdf-processing by model: skill__pdf-processing__extract",
          "unloaded pdf-processing (request)",
        ]);
      } finally {
        await agent.close();
      }
    });
  });

  it("lets a person or code load a skill the model may not, and puts its procedure in the prompt", async () => {
    await withWorkspace(async (workspace) => {
      await copySkills(path.join(workspace.root, ".claude/skills"), ["release-notes"]);
      const { agent, manager } = await skillAgent(workspace);
      try {
        assert.equal(agent.registry.get("load_skill"), undefined, "nothing the model may load");
        const loaded = await manager.load("release-notes", { by: "user" });
        assert.match(loaded.body, /Collect the commits since the last tag/);
        assert.match(
          agent.systemPrompt(),
          /## Skill "release-notes" \(loaded\)[\s\S]*Collect the commits/,
        );
        assert.ok(agent.registry.get("unload_skill"), "a loaded skill can be unloaded");
        assert.equal(manager.unload("release-notes"), true);
        assert.doesNotMatch(agent.systemPrompt(), /Collect the commits/);
        await assert.rejects(manager.load("release-notes", { by: "model" }), {
          code: "skill_not_model_invocable",
        });
        await assert.rejects(
          manager.load("nope"),
          (error: Error & { code?: string }) =>
            error.code === "unknown_skill" &&
            /No skill is named "nope" \(skills: release-notes\)/.test(error.message),
        );
      } finally {
        await agent.close();
      }
    });
  });

  it("unloads every skill and removes its tools when the agent closes", async () => {
    await withWorkspace(async (workspace) => {
      await copySkills(path.join(workspace.root, ".claude/skills"), [
        "pdf-processing",
        "commit-helper",
      ]);
      const { agent, manager } = await skillAgent(workspace);
      await manager.load("pdf-processing");
      await manager.load("commit-helper");
      assert.equal(agent.registry.list().length, 5);
      await agent.close();
      assert.equal(agent.registry.list().length, 0);
      assert.deepEqual(
        manager.list(),
        manager.list().filter((skill) => skill.state !== "loaded"),
      );
    });
  });
});

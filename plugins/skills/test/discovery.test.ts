import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";
import { copySkills } from "./support/fixtures.js";
import { skillAgent, withWorkspace, writeSkill } from "./support/skill-agent.js";

describe("finding skills", () => {
  it("looks in the three project folders and the three user folders, the project's first", async () => {
    await withWorkspace(async (workspace) => {
      const { root, home } = workspace;
      await writeSkill(path.join(root, ".PseudoClaude/skills"), "ours", {
        name: "ours",
        description: "Ours.",
      });
      await writeSkill(path.join(root, ".agents/skills"), "cross", {
        name: "cross",
        description: "Cross-agent.",
      });
      await writeSkill(path.join(root, ".claude/skills"), "claude", {
        name: "claude",
        description: "Claude Code's.",
      });
      await writeSkill(path.join(home, ".PseudoClaude/skills"), "mine", {
        name: "mine",
        description: "User, ours.",
      });
      await writeSkill(path.join(home, ".agents/skills"), "mine-cross", {
        name: "mine-cross",
        description: "User, cross.",
      });
      await writeSkill(path.join(home, ".claude/skills"), "mine-claude", {
        name: "mine-claude",
        description: "User, Claude.",
      });
      const { agent, manager } = await skillAgent(workspace);
      try {
        assert.deepEqual(
          manager.list().map((skill) => [skill.name, skill.layer, skill.state]),
          [
            ["ours", "project", "available"],
            ["cross", "project", "available"],
            ["claude", "project", "available"],
            ["mine", "user", "available"],
            ["mine-cross", "user", "available"],
            ["mine-claude", "user", "available"],
          ],
        );
        const prompt = agent.systemPrompt();
        assert.match(prompt, /- ours: Ours\. \[project \.PseudoClaude\/skills\/ours\]/);
        assert.match(
          prompt,
          /- mine-claude: User, Claude\. \[user ~\/\.claude\/skills\/mine-claude\]/,
        );
        assert.equal(
          manager.get("claude")?.path,
          path.join(root, ".claude/skills/claude/SKILL.md"),
        );
      } finally {
        await agent.close();
      }
    });
  });

  it("lets a project skill replace a user skill of the same name, saying which file won", async () => {
    await withWorkspace(async (workspace) => {
      const projectFile = path.join(
        await writeSkill(path.join(workspace.root, ".claude/skills"), "deploy", {
          name: "deploy",
          description: "Project deploy.",
        }),
        "SKILL.md",
      );
      const userFile = path.join(
        await writeSkill(path.join(workspace.home, ".PseudoClaude/skills"), "deploy", {
          name: "deploy",
          description: "User deploy.",
        }),
        "SKILL.md",
      );
      const { agent, manager } = await skillAgent(workspace);
      try {
        assert.deepEqual(
          manager.list().map((skill) => [skill.name, skill.layer, skill.description]),
          [["deploy", "project", "Project deploy."]],
        );
        const shadowed = agent
          .diagnostics()
          .find((diagnostic) => diagnostic.code === "skill_shadowed");
        assert.ok(shadowed, "a diagnostic says which skill won");
        assert.equal(shadowed.file, userFile);
        assert.ok(shadowed.message.includes(projectFile) && shadowed.message.includes(userFile));
        assert.match(shadowed.message, /The project skill "deploy" .* replaces the user skill/);
      } finally {
        await agent.close();
      }
    });
  });

  it("keeps the first of two skills with one name in the same layer, in lookup order", async () => {
    await withWorkspace(async (workspace) => {
      await writeSkill(path.join(workspace.root, ".agents/skills"), "lint", {
        name: "lint",
        description: "From .agents.",
      });
      const later = path.join(
        await writeSkill(path.join(workspace.root, ".claude/skills"), "lint", {
          name: "lint",
          description: "From .claude.",
        }),
        "SKILL.md",
      );
      const { agent, manager } = await skillAgent(workspace);
      try {
        assert.equal(manager.get("lint")?.description, "From .agents.");
        const duplicate = agent
          .diagnostics()
          .find((diagnostic) => diagnostic.code === "skill_duplicate");
        assert.equal(duplicate?.severity, "warning");
        assert.equal(duplicate?.file, later);
        assert.match(duplicate?.message ?? "", /\.agents\/skills\/lint\/SKILL\.md wins/);
      } finally {
        await agent.close();
      }
    });
  });

  it("never lets one bad skill stop the others, and reports each with its file", async () => {
    await withWorkspace(async (workspace) => {
      const root = path.join(workspace.root, ".claude/skills");
      await copySkills(root, [
        "pdf-processing",
        "bad-yaml",
        "no-description",
        "no-front-matter",
        "Bad_Name",
        "mismatch-folder",
      ]);
      const { agent, manager } = await skillAgent(workspace);
      try {
        assert.deepEqual(
          manager.list().map((skill) => [skill.name, skill.state]),
          [
            ["Bad_Name", "available"],
            ["bad-yaml", "invalid"],
            ["other-name", "available"],
            ["no-description", "invalid"],
            ["no-front-matter", "invalid"],
            ["pdf-processing", "available"],
          ],
        );
        const codes = agent
          .diagnostics()
          .filter((diagnostic) => diagnostic.source === "skills")
          .map((diagnostic) => [
            diagnostic.code,
            diagnostic.severity,
            path.basename(path.dirname(diagnostic.file ?? "")),
          ]);
        for (const expected of [
          ["skill_name_invalid", "warning", "Bad_Name"],
          ["skill_yaml_error", "error", "bad-yaml"],
          ["skill_name_mismatch", "warning", "mismatch-folder"],
          ["skill_description_missing", "error", "no-description"],
          ["skill_no_front_matter", "error", "no-front-matter"],
        ])
          assert.ok(
            codes.some((code) => JSON.stringify(code) === JSON.stringify(expected)),
            `expected ${expected.join(" ")} among ${JSON.stringify(codes)}`,
          );
        const invalid = manager.get("bad-yaml");
        assert.equal(invalid, undefined, "an invalid skill cannot be got as a skill by name");
        const listed = manager.list().find((skill) => skill.name === "bad-yaml");
        assert.equal(listed?.diagnostics[0]?.line, 4);
      } finally {
        await agent.close();
      }
    });
  });

  it("reads skills.paths, skills.enabled and skills.disabled from config", async () => {
    await withWorkspace(async (workspace) => {
      const extra = path.join(workspace.root, "team-skills");
      await writeSkill(extra, "style", { name: "style", description: "House style." });
      await writeSkill(path.join(workspace.root, ".claude/skills"), "old", {
        name: "old",
        description: "Old one.",
      });
      await writeSkill(path.join(workspace.root, ".claude/skills"), "other", {
        name: "other",
        description: "Other.",
      });
      await workspace.writeConfig(
        "project",
        "skills:\n  paths: [team-skills]\n  disabled: [old]\n",
      );
      const first = await skillAgent(workspace);
      try {
        assert.deepEqual(
          first.manager.list().map((skill) => [skill.name, skill.state]),
          [
            ["old", "disabled"],
            ["other", "available"],
            ["style", "available"],
          ],
        );
        assert.doesNotMatch(first.agent.systemPrompt(), /- old:/);
        await assert.rejects(first.manager.load("old"), { code: "skill_disabled" });
      } finally {
        await first.agent.close();
      }
      await workspace.writeConfig("user", "skills:\n  enabled: [style]\n");
      const second = await skillAgent(workspace);
      try {
        assert.deepEqual(
          second.manager
            .list()
            .filter((skill) => skill.state === "available")
            .map((skill) => skill.name),
          ["style"],
        );
      } finally {
        await second.agent.close();
      }
    });
  });

  it("reports a bad config key at its line and keeps the others", async () => {
    await withWorkspace(async (workspace) => {
      await workspace.writeConfig(
        "project",
        "skills:\n  index_budget_chars: tiny\n  disabled: [x]\n  colour: red\n",
      );
      const { agent } = await skillAgent(workspace);
      try {
        const config = agent
          .diagnostics()
          .filter((diagnostic) => diagnostic.stage === "config")
          .map((diagnostic) => [diagnostic.code, diagnostic.line]);
        assert.deepEqual(config, [
          ["config_invalid", 2],
          ["config_unknown_key", 4],
        ]);
      } finally {
        await agent.close();
      }
    });
  });

  it("offers skills defined in code, which win over folders", async () => {
    await withWorkspace(async (workspace) => {
      await writeSkill(path.join(workspace.root, ".claude/skills"), "triage", {
        name: "triage",
        description: "From a folder.",
      });
      const { agent, manager } = await skillAgent(workspace, {
        skills: [
          { name: "triage", description: "Triage issues by label.", body: "Label every issue." },
        ],
      });
      try {
        assert.equal(manager.get("triage")?.layer, "code");
        assert.match(agent.systemPrompt(), /- triage: Triage issues by label\. \[code\]/);
        const loaded = await manager.load("triage");
        assert.equal(loaded.body, "Label every issue.");
      } finally {
        await agent.close();
      }
    });
  });

  it("has no tools and no index when there are no skills", async () => {
    await withWorkspace(async (workspace) => {
      const { agent } = await skillAgent(workspace);
      try {
        assert.deepEqual(agent.offeredTools(), []);
        assert.doesNotMatch(agent.systemPrompt(), /Skills/);
        assert.deepEqual(agent.sources()[0]?.status.stats, {
          skills: 0,
          available: 0,
          loaded: 0,
          disabled: 0,
          invalid: 0,
          tools: 0,
        });
      } finally {
        await agent.close();
      }
    });
  });
});

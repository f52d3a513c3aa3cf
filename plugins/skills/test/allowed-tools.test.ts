import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";
import { builtinTools } from "@pseudoclaude/plugin-builtin-tools";
import type { TempWorkspace } from "@pseudoclaude/testing";
import type { SkillsOptions } from "../src/index.js";
import { copySkills } from "./support/fixtures.js";
import { skillAgent, withWorkspace, writeSkill } from "./support/skill-agent.js";

const ECHO_SKILL = {
  name: "greeter",
  description: "Greets.",
  "allowed-tools": "Bash(echo:*) Read",
};

async function greeter(workspace: TempWorkspace, layer: "user" | "project") {
  const base = layer === "user" ? workspace.home : workspace.root;
  await writeSkill(path.join(base, ".claude/skills"), "greeter", ECHO_SKILL);
}

function agentWith(workspace: TempWorkspace, options: SkillsOptions = {}, mode?: "plan") {
  return skillAgent(workspace, options, {
    plugins: [builtinTools()],
    ...(mode ? { policy: { mode } } : {}),
  });
}

describe("allowed-tools of a loaded skill", () => {
  it("pre-approve what they name while the skill is loaded, and nothing more", async () => {
    await withWorkspace(async (workspace) => {
      await greeter(workspace, "user");
      const { agent, manager } = await agentWith(workspace);
      try {
        const before = await agent.callTool("run_command", { command: "echo hi" });
        assert.equal(before.decision.verdict, "ask", "nothing pre-approved before loading");
        await manager.load("greeter");
        assert.deepEqual(manager.get("greeter")?.permissions, ["run_command(echo*)", "read_file"]);
        const during = await agent.callTool("run_command", { command: "echo hi" });
        assert.equal(during.decision.verdict, "allow");
        assert.deepEqual(during.decision.matched, {
          kind: "layer",
          effect: "allow",
          origin: "skill:greeter",
          patterns: ["run_command(echo*)"],
        });
        assert.ok(during.result.ok);
        const compound = await agent.callTool("run_command", { command: "echo hi && touch x" });
        assert.equal(
          compound.decision.verdict,
          "ask",
          "a compound command is not what was allowed",
        );
        manager.unload("greeter");
        const after = await agent.callTool("run_command", { command: "echo hi" });
        assert.equal(after.decision.verdict, "ask");
      } finally {
        await agent.close();
      }
    });
  });

  it("never override a deny rule or plan mode", async () => {
    await withWorkspace(async (workspace) => {
      await greeter(workspace, "user");
      await workspace.writeConfig("user", "permissions:\n  deny: ['run_command(echo secret*)']\n");
      const denied = await agentWith(workspace);
      try {
        await denied.manager.load("greeter");
        const outcome = await denied.agent.callTool("run_command", {
          command: "echo secret stuff",
        });
        assert.equal(outcome.decision.verdict, "deny");
        assert.equal(outcome.decision.matched.kind, "rule");
        assert.equal(
          (await denied.agent.callTool("run_command", { command: "echo fine" })).decision.verdict,
          "allow",
        );
      } finally {
        await denied.agent.close();
      }
      const plan = await agentWith(workspace, {}, "plan");
      try {
        await plan.manager.load("greeter");
        const outcome = await plan.agent.callTool("run_command", { command: "echo hi" });
        assert.equal(outcome.decision.verdict, "deny");
        assert.deepEqual(outcome.decision.matched, { kind: "mode", mode: "plan" });
        assert.ok(!plan.agent.offeredTools().some((tool) => tool.name === "run_command"));
      } finally {
        await plan.agent.close();
      }
    });
  });

  it("of a project skill pre-approve nothing unless the user's own config trusts it", async () => {
    await withWorkspace(async (workspace) => {
      await greeter(workspace, "project");
      const untrusted = await agentWith(workspace);
      try {
        await untrusted.manager.load("greeter");
        assert.equal(untrusted.manager.get("greeter")?.allowedToolsHonoured, false);
        const outcome = await untrusted.agent.callTool("run_command", { command: "echo hi" });
        assert.equal(outcome.decision.verdict, "ask");
        assert.equal(outcome.result.ok ? "" : outcome.result.error.code, "denied");
        const warning = untrusted.agent
          .diagnostics()
          .find((d) => d.code === "skill_allowed_tools_untrusted");
        assert.match(
          warning?.message ?? "",
          /Project skill "greeter" asks to pre-approve run_command\(echo\*\), read_file; ignored/,
        );
      } finally {
        await untrusted.agent.close();
      }

      // A project config cannot trust its own skills.
      await workspace.writeConfig(
        "project",
        "skills:\n  trust_project_allowed_tools: true\n  trusted: [greeter]\n",
      );
      const selfTrusted = await agentWith(workspace);
      try {
        await selfTrusted.manager.load("greeter");
        assert.equal(
          (await selfTrusted.agent.callTool("run_command", { command: "echo hi" })).decision
            .verdict,
          "ask",
        );
        const ignored = selfTrusted.agent
          .diagnostics()
          .filter((d) => d.code === "skills_trust_in_project");
        assert.deepEqual(
          ignored.map((d) => [d.item, d.line]),
          [
            ["skills.trust_project_allowed_tools", 2],
            ["skills.trusted", 3],
          ],
        );
      } finally {
        await selfTrusted.agent.close();
      }

      for (const userConfig of [
        "skills:\n  trusted: [greeter]\n",
        "skills:\n  trust_project_allowed_tools: true\n",
      ]) {
        await workspace.writeConfig("user", userConfig);
        const trusted = await agentWith(workspace);
        try {
          await trusted.manager.load("greeter");
          assert.equal(trusted.manager.get("greeter")?.allowedToolsHonoured, true, userConfig);
          assert.equal(
            (await trusted.agent.callTool("run_command", { command: "echo hi" })).decision.verdict,
            "allow",
            userConfig,
          );
        } finally {
          await trusted.agent.close();
        }
      }
    });
  });

  it("in restrict mode narrow the offered and callable tools to the skill's own while it is loaded", async () => {
    await withWorkspace(async (workspace) => {
      await copySkills(path.join(workspace.home, ".claude/skills"), ["commit-helper"]);
      await workspace.writeConfig("user", "skills:\n  allowed_tools_mode: restrict\n");
      // A project config cannot lift the user's restriction.
      await workspace.writeConfig("project", "skills:\n  allowed_tools_mode: approve\n");
      const { agent, manager } = await agentWith(workspace);
      try {
        const all = agent.offeredTools().map((tool) => tool.name);
        assert.ok(all.includes("write_file") && all.includes("glob"));
        await manager.load("commit-helper");
        assert.deepEqual(
          agent
            .offeredTools()
            .map((tool) => tool.name)
            .sort(),
          [
            "load_skill",
            "read_file",
            "read_skill_file",
            "run_command",
            "skill__commit-helper__staged",
            "unload_skill",
          ],
        );
        const write = await agent.callTool("write_file", { path: "x.txt", content: "x" });
        assert.equal(write.decision.verdict, "deny");
        assert.equal(write.decision.matched.kind, "layer");
        const other = await agent.callTool("run_command", { command: "ls" });
        assert.equal(other.decision.verdict, "deny", "only the allowed command runs");
        assert.equal(
          (await agent.callTool("run_command", { command: "git diff --cached" })).decision.verdict,
          "allow",
        );
        manager.unload("commit-helper");
        assert.deepEqual(
          agent.offeredTools().map((tool) => tool.name),
          all,
        );
      } finally {
        await agent.close();
      }
    });
  });
});

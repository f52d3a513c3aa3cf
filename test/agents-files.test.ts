// Sub-agents from agent files with the real CLI: Claude Code's format in ~/.claude/agents and
// the workspace's .claude/agents, Claude Code's tool names mapped, a workspace agent offered
// only once approved, a broken file a diagnostic with its file, and a call that runs the
// child with its instructions and only its tools.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { createTempWorkspace } from "@pseudoclaude/testing";
import { parseJson, runCli } from "./support/cli.js";

interface AgentsJson {
  agents: Array<{
    name: string;
    tool: string;
    tools: string[] | null;
    layer: string;
    state: string;
    model: string | null;
  }>;
  diagnostics: Array<{ code?: string; file?: string; message: string }>;
}

describe("agent files", () => {
  it("lists, offers, runs and approves them", { timeout: 60_000 }, async () => {
    const workspace = await createTempWorkspace("pc-agents-");
    try {
      const userAgents = path.join(workspace.home, ".claude", "agents");
      await mkdir(userAgents, { recursive: true });
      await writeFile(
        path.join(userAgents, "reviewer.md"),
        "---\nname: reviewer\ndescription: Reviews code for bugs.\ntools: Read, Grep\nmodel: sonnet\n---\nYou review code. List concrete bugs only.\n",
      );
      await writeFile(
        path.join(userAgents, "broken.md"),
        "---\nname: broken\n---\nNo description.\n",
      );
      await workspace.write(
        ".claude/agents/deployer.md",
        "---\nname: deployer\ndescription: Deploys.\ntools: [Bash]\n---\nDeploy things.\n",
      );
      const list = async () => parseJson<AgentsJson>(await runCli(workspace, ["agents", "--json"]));
      const before = await list();
      assert.deepEqual(
        before.agents.map((agent) => [
          agent.name,
          agent.tool,
          agent.tools,
          agent.layer,
          agent.state,
        ]),
        [
          ["reviewer", "agent__reviewer", ["read_file", "grep"], "user", "active"],
          ["deployer", "agent__deployer", ["run_command"], "project", "needs-approval"],
        ],
      );
      assert.ok(
        before.diagnostics.some((d) => d.code === "agent_invalid" && d.file?.endsWith("broken.md")),
      );
      // `model: sonnet` is one of Claude Code's aliases: it resolves, and is no diagnostic.
      assert.ok(!before.diagnostics.some((d) => d.code === "agent_model_inherited"));

      const toolNames = async () =>
        parseJson<{ tools: Array<{ name: string }> }>(
          await runCli(workspace, ["tools", "--json"]),
        ).tools.map((tool) => tool.name);
      const offered = await toolNames();
      assert.ok(offered.includes("agent__reviewer"));
      assert.ok(!offered.includes("agent__deployer"), "not approved: not offered");

      await workspace.write(
        "script.json",
        JSON.stringify([
          { tool_calls: [{ name: "agent__reviewer", arguments: { prompt: "review x.ts" } }] },
          {
            expect: {
              system_includes: ["You review code. List concrete bugs only."],
              tools: ["read_file", "grep"],
            },
            text: "No bugs.",
          },
          { text: "The reviewer found no bugs." },
        ]),
      );
      const run = await runCli(workspace, ["run", "review", "--script", "script.json", "--json"]);
      assert.equal(run.code, 0, run.stderr);
      const json = parseJson<{
        text: string;
        tool_calls: Array<{ name: string; result: { ok: boolean } }>;
      }>(run);
      assert.equal(json.text, "The reviewer found no bugs.");
      assert.equal(json.tool_calls[0]?.result.ok, true);

      const approved = await runCli(workspace, ["agents", "approve", "deployer"]);
      assert.match(approved.stdout, /approved agent:deployer: agent deployer: Deploys\./);
      assert.equal((await list()).agents[1]?.state, "approved");
      assert.ok((await toolNames()).includes("agent__deployer"), "approved: offered");
      await runCli(workspace, ["agents", "revoke"]);
      assert.equal((await list()).agents[1]?.state, "needs-approval");
    } finally {
      await workspace.cleanup();
    }
  });

  it("an agent file with a model id runs on that model of the parent's provider", async () => {
    const workspace = await createTempWorkspace("pc-agents-model-");
    try {
      const userAgents = path.join(workspace.home, ".claude", "agents");
      await mkdir(userAgents, { recursive: true });
      await writeFile(
        path.join(userAgents, "summarizer.md"),
        "---\nname: summarizer\ndescription: Summarizes.\nmodel: small-model-1\n---\nSummarize.\n",
      );
      await workspace.write(
        "script.json",
        JSON.stringify([
          { tool_calls: [{ name: "agent__summarizer", arguments: { prompt: "sum up" } }] },
          { text: "summary" },
          { text: "done" },
        ]),
      );
      const listed = parseJson<AgentsJson>(await runCli(workspace, ["agents", "--json"]));
      assert.ok(!listed.diagnostics.some((d) => d.code === "agent_model_inherited"));
      const run = await runCli(workspace, ["run", "go", "--script", "script.json", "--json"]);
      assert.equal(run.code, 0, run.stderr);
      const output = JSON.parse(run.stdout) as {
        tool_calls: Array<{ result: { metadata: Record<string, unknown> } }>;
      };
      assert.equal(output.tool_calls[0]!.result.metadata.model, "small-model-1");
    } finally {
      await workspace.cleanup();
    }
  });

  it("a model that is no id, alias or inherit runs on the parent's model with one warning", async () => {
    const workspace = await createTempWorkspace("pc-agents-nickname-");
    try {
      const userAgents = path.join(workspace.home, ".claude", "agents");
      await mkdir(userAgents, { recursive: true });
      await writeFile(
        path.join(userAgents, "teller.md"),
        "---\nname: teller\ndescription: Tells stories.\nmodel: fable\n---\nTell.\n",
      );
      for (const alias of ["sonnet", "opus", "haiku", "inherit"])
        await writeFile(
          path.join(userAgents, `${alias}-agent.md`),
          `---\nname: ${alias}-agent\ndescription: Uses ${alias}.\nmodel: ${alias}\n---\nDo.\n`,
        );
      const listed = parseJson<AgentsJson>(await runCli(workspace, ["agents", "--json"]));
      const warnings = listed.diagnostics.filter((d) => d.code === "agent_model_inherited");
      assert.equal(warnings.length, 1, JSON.stringify(listed.diagnostics));
      assert.ok(warnings[0]?.file?.endsWith("teller.md"));
      assert.match(warnings[0]?.message ?? "", /"fable"/);

      // The text listing says nothing about aliases: one warning line, for the nickname only.
      const text = await runCli(workspace, ["agents"]);
      assert.equal(text.code, 0, text.stderr);
      const lines = text.stderr.split("\n").filter((line) => line.trim() !== "");
      assert.equal(lines.length, 1, text.stderr);
      assert.match(lines[0] ?? "", /teller\.md.*"fable"/);

      await workspace.write(
        "script.json",
        JSON.stringify([
          { tool_calls: [{ name: "agent__teller", arguments: { prompt: "a story" } }] },
          { text: "Once upon a time." },
          { tool_calls: [{ name: "agent__opus-agent", arguments: { prompt: "think" } }] },
          { text: "Thought." },
          { text: "done" },
        ]),
      );
      const run = await runCli(workspace, ["run", "go", "--script", "script.json", "--json"]);
      assert.equal(run.code, 0, run.stderr);
      const output = JSON.parse(run.stdout) as {
        tool_calls: Array<{ result: { metadata: Record<string, unknown> } }>;
      };
      // Neither "fable" nor the alias reaches the (non-Claude) provider: both run on its model.
      for (const call of output.tool_calls) {
        assert.equal(call.result.metadata.model, "script");
        assert.equal(call.result.metadata.model_inherited, undefined);
      }
    } finally {
      await workspace.cleanup();
    }
  });
});

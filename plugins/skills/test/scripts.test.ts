import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import type { Agent, CreateAgentOptions, ToolResult } from "@pseudoclaude/core";
// Zombies count as gone: the kernel's own check, the one the runner waits on.
import { groupAlive } from "@pseudoclaude/core/process";
import type { TempWorkspace } from "@pseudoclaude/testing";
import { SkillsManager, type SkillsOptions } from "../src/index.js";
import { skillAgent, withWorkspace, writeSkill } from "./support/skill-agent.js";

const textOf = (result: ToolResult) =>
  result.content.map((block) => (block.type === "text" ? block.text : "")).join("");

const SCRIPTS = {
  "report.sh":
    '#!/bin/sh\n# Report arguments, folder and input.\necho "args:$1|$2"\necho "dir:$SKILL_DIR"\necho "cwd:$(pwd)"\necho "in:$(cat)"\n',
  "fail.sh": "#!/bin/sh\necho failing >&2\nexit 3\n",
  "hang.sh": '#!/bin/sh\necho $$ > "$PWD/hang.pid"\nsleep 30 &\nsleep 30\n',
  "loud.sh":
    '#!/bin/sh\ni=0\nwhile [ $i -lt 400 ]; do echo "line $i of output that goes on"; i=$((i+1)); done\n',
  "notes.txt": "not a script",
};

/** A workspace with the `tools` skill (the scripts above) loaded, cleaned up afterwards. */
async function withScripts(
  body: (context: { agent: Agent; workspace: TempWorkspace; dir: string }) => Promise<void>,
  options: SkillsOptions = {},
  agentOptions: Omit<CreateAgentOptions, "workspace"> = { policy: { mode: "bypass" } },
): Promise<void> {
  await withWorkspace(async (workspace) => {
    const dir = await writeSkill(
      path.join(workspace.root, ".claude/skills"),
      "tools",
      { name: "tools", description: "Scripts." },
      "Run them.",
      SCRIPTS,
    );
    const { agent, manager } = await skillAgent(workspace, options, agentOptions);
    try {
      await manager.load("tools");
      await body({ agent, workspace, dir });
    } finally {
      await agent.close();
    }
  });
}

describe("skill scripts as tools", () => {
  it("run with the workspace as working directory, SKILL_DIR, arguments and standard input", async () => {
    await withScripts(async ({ agent, workspace, dir }) => {
      const manager = agent.resolve<SkillsManager>(SkillsManager);
      assert.deepEqual(
        manager.get("tools")?.tools,
        ["skill__tools__fail", "skill__tools__hang", "skill__tools__loud", "skill__tools__report"],
        "executable files of scripts/ only",
      );
      const outcome = await agent.callTool("skill__tools__report", {
        args: ["a b", "$HOME"],
        stdin: "hello",
      });
      assert.ok(outcome.result.ok, textOf(outcome.result));
      const text = textOf(outcome.result);
      assert.match(text, /args:a b\|\$HOME/, "arguments are passed as they are, without a shell");
      assert.match(text, new RegExp(`dir:${dir}`));
      assert.match(text, new RegExp(`cwd:${workspace.root}`));
      assert.match(text, /in:hello/);
      assert.equal(outcome.result.metadata?.exit_code, 0);
      assert.equal(outcome.result.metadata?.signal, null);
    });
  });

  it("report a non-zero exit as a failure with its code and output", async () => {
    await withScripts(async ({ agent }) => {
      const outcome = await agent.callTool("skill__tools__fail", {});
      assert.equal(outcome.result.ok, false);
      assert.equal(outcome.result.ok ? "" : outcome.result.error.code, "tool_error");
      assert.match(textOf(outcome.result), /failing\n\[Exit code 3\.\]/);
      assert.equal((outcome.result.structured as { exit_code: number }).exit_code, 3);
    });
  });

  it("end the script's whole process group on the call's timeout", async () => {
    await withScripts(
      async ({ agent, workspace }) => {
        const outcome = await agent.callTool("skill__tools__hang", {});
        assert.equal(outcome.result.ok ? "" : outcome.result.error.code, "timeout");
        assert.match(
          textOf(outcome.result),
          /Script timed out after 600 ms; its process group was ended with SIG(TERM|KILL)/,
        );
        const pid = Number((await readFile(path.join(workspace.root, "hang.pid"), "utf8")).trim());
        assert.ok(pid > 0);
        assert.equal(groupAlive(pid), false, "the script and its background sleep are gone");
      },
      {},
      { policy: { mode: "bypass" }, toolTimeoutMs: 600 },
    );
  });

  it("cap the output, keeping its beginning and end", async () => {
    await withScripts(
      async ({ agent }) => {
        const outcome = await agent.callTool("skill__tools__loud", {});
        assert.ok(outcome.result.ok);
        const structured = outcome.result.structured as {
          truncated: boolean;
          output_chars: number;
        };
        assert.equal(structured.truncated, true);
        assert.ok(structured.output_chars > 10_000);
        const text = textOf(outcome.result);
        assert.match(text, /^line 0 of output/);
        assert.match(text, /characters omitted \(output cap 2000\)/);
        assert.match(text, /line 399 of output that goes on\n\[Exit code 0\.\]$/);
      },
      { maxOutputChars: 2_000 },
    );
  });

  it("go through the policy like every tool: a side effect asks, and without an approver is denied", async () => {
    const asked: string[] = [];
    await withScripts(
      async ({ agent }) => {
        const outcome = await agent.callTool("skill__tools__report", {});
        assert.deepEqual(asked, ["skill__tools__report"]);
        assert.equal(outcome.result.ok ? "" : outcome.result.error.code, "denied");
      },
      {},
      {
        approve: async ({ call }) => {
          asked.push(call.name);
          return "deny" as const;
        },
      },
    );
  });

  it("stop a running script when the agent closes", async () => {
    await withScripts(async ({ agent, workspace }) => {
      const running = agent.callTool("skill__tools__hang", {});
      const pidFile = path.join(workspace.root, "hang.pid");
      let pid = 0;
      for (let attempt = 0; attempt < 100 && pid === 0; attempt++) {
        pid = Number((await readFile(pidFile, "utf8").catch(() => "0")).trim());
        if (pid === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.ok(pid > 0, "the script started");
      await agent.close();
      const outcome = await running;
      assert.equal(outcome.result.ok, false);
      assert.equal(groupAlive(pid), false);
    });
  });
});

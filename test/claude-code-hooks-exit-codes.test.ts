// Claude Code's exit-code table, with real commands through the real agent and built-in
// tools: for hooks from Claude Code's settings files exit 2 blocks and every other failure
// (exit 1, a crash, a missing script, a timeout) is a non-blocking error that is reported while
// the call goes on, unless the hook or the user's config says on_failure: block; hooks from our
// own config still fail closed. Then the answers of the events the kernel seams added:
// PermissionRequest deciding in the person's place, PreCompact holding a summary back, and
// PostToolUseFailure feeding back to the model.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { createAgent, type Diagnostic, type PolicyOptions } from "@pseudoclaude/core";
import { builtinTools } from "@pseudoclaude/plugin-builtin-tools";
import { hooks } from "@pseudoclaude/plugin-hooks";
import { createTempWorkspace, ScriptedProvider, type ScriptedStep } from "@pseudoclaude/testing";
import { withClaudeLayers } from "./support/claude-layers.js";

const TIMEOUT = { timeout: 30_000 };

interface Setup {
  /** `~/.claude/settings.json`'s `hooks`. */
  claude?: Record<string, unknown>;
  /** The user's PseudoClaude config (YAML). */
  yaml?: string;
  steps?: ScriptedStep[];
  policy?: PolicyOptions;
  approve?: () => "allow" | "deny";
  /** After the run: compact, and return what it did. */
  compact?: boolean;
}

const preToolUse = (command: string, extra: Record<string, unknown> = {}) => ({
  PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command, ...extra }] }],
});

const RUN_TOUCH: ScriptedStep[] = [
  { tool_calls: [{ id: "c1", name: "run_command", arguments: { command: "touch ran" } }] },
  { text: "done" },
];

async function runWith(setup: Setup) {
  const workspace = await createTempWorkspace("pc-cc-exit-");
  try {
    if (setup.claude) {
      await mkdir(path.join(workspace.home, ".claude"), { recursive: true });
      await writeFile(
        path.join(workspace.home, ".claude", "settings.json"),
        JSON.stringify({ hooks: setup.claude }),
      );
    }
    if (setup.yaml) await workspace.writeConfig("user", setup.yaml);
    const provider = new ScriptedProvider(setup.steps ?? RUN_TOUCH);
    const agent = await createAgent({
      workspace: workspace.root,
      config: withClaudeLayers(workspace),
      provider,
      policy: setup.policy ?? { mode: "bypass" },
      ...(setup.approve ? { approve: setup.approve } : {}),
      plugins: [builtinTools(), hooks({ homeDir: workspace.home })],
    });
    const diagnostics: Diagnostic[] = [...agent.diagnostics()];
    agent.on("diagnostic", (diagnostic) => diagnostics.push(diagnostic));
    try {
      const result = await agent.run("go");
      const compaction = setup.compact ? await agent.compact() : undefined;
      return {
        record: result.toolCalls[0],
        ran: existsSync(path.join(workspace.root, "ran")),
        failures: diagnostics.filter((d) => d.code === "hook_failed"),
        diagnostics,
        provider,
        compaction,
      };
    } finally {
      await agent.close();
    }
  } finally {
    await workspace.cleanup();
  }
}

describe("Claude Code's exit codes for hooks from its settings files", () => {
  const goesOn = async (claude: Record<string, unknown>, why: RegExp) => {
    const outcome = await runWith({ claude });
    assert.equal(outcome.ran, true, "the call went on");
    assert.equal(outcome.record?.result.ok, true);
    assert.equal(outcome.failures.length, 1, "the failure was reported once");
    assert.match(outcome.failures[0]?.message ?? "", why);
    assert.match(outcome.failures[0]?.message ?? "", /non-blocking error, as in Claude Code/);
  };

  it("exit 0: the call runs and nothing is reported", TIMEOUT, async () => {
    const outcome = await runWith({ claude: preToolUse("exit 0") });
    assert.equal(outcome.ran, true);
    assert.deepEqual(outcome.failures, []);
  });

  it("exit 1: a non-blocking error, shown, and the call runs", TIMEOUT, async () => {
    await goesOn(preToolUse("echo 'lint is broken' >&2; exit 1"), /exited with 1: lint is broken/);
  });

  it("exit 2: blocks, and the model reads stderr", TIMEOUT, async () => {
    const outcome = await runWith({ claude: preToolUse("echo 'not in this repo' >&2; exit 2") });
    assert.equal(outcome.ran, false);
    assert.equal(outcome.record?.result.error?.code, "denied");
    assert.equal(outcome.record?.result.error?.message, "not in this repo");
    assert.deepEqual(outcome.failures, [], "a block is an answer, not a failure");
  });

  it("a crash (killed by a signal): non-blocking, the call runs", TIMEOUT, async () => {
    await goesOn(preToolUse("kill -SEGV $$"), /exited with SIGSEGV/);
  });

  it(
    "a missing script ($CLAUDE_PROJECT_DIR/.claude/hooks/pre_tool_use.py in a project without it): non-blocking",
    TIMEOUT,
    async () => {
      await goesOn(
        preToolUse('"$CLAUDE_PROJECT_DIR"/.claude/hooks/pre_tool_use.py'),
        /exited with 127/,
      );
    },
  );

  it("a timeout: non-blocking, the call runs", TIMEOUT, async () => {
    await goesOn(preToolUse("sleep 10", { timeout: 0.5 }), /did not finish within 0\.5 s/);
  });

  it("on_failure: block on the hook makes its failure block", TIMEOUT, async () => {
    const outcome = await runWith({ claude: preToolUse("exit 1", { on_failure: "block" }) });
    assert.equal(outcome.ran, false);
    assert.match(outcome.record?.result.error?.message ?? "", /failed \(it exited with 1\)/);
    assert.match(outcome.failures[0]?.message ?? "", /blocked \(on_failure: block\)/);
  });

  it(
    "hooks.on_failure: block in the user's config makes Claude Code's hooks fail closed",
    TIMEOUT,
    async () => {
      const outcome = await runWith({
        claude: preToolUse("exit 1"),
        yaml: "hooks:\n  on_failure: block\n",
      });
      assert.equal(outcome.ran, false);
      assert.equal(outcome.record?.result.error?.code, "denied");
    },
  );

  it("a guard in our own config still fails closed", TIMEOUT, async () => {
    const outcome = await runWith({
      yaml: `hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - { type: command, command: "exit 1" }\n`,
    });
    assert.equal(outcome.ran, false);
    assert.match(outcome.failures[0]?.message ?? "", /blocked \(on_failure: block\)/);
  });
});

describe("what Claude Code's files may hold that we do not run", () => {
  it(
    "a prompt hook is reported at its line, and the command hooks beside it still run",
    TIMEOUT,
    async () => {
      const outcome = await runWith({
        claude: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [
                { type: "prompt", prompt: "Is this command safe?" },
                { type: "command", command: "echo 'still guarded' >&2; exit 2" },
              ],
            },
          ],
        },
      });
      assert.equal(outcome.ran, false);
      assert.equal(outcome.record?.result.error?.message, "still guarded");
      const skipped = outcome.diagnostics.filter((d) => d.code === "hook_type_unsupported");
      assert.deepEqual(
        skipped.map((d) => [d.item, d.line, d.severity]),
        [["PreToolUse:prompt", 1, "warning"]],
      );
    },
  );
});

describe("a misspelt event in our own config", () => {
  it(
    "stops the run with the line and a suggestion: a guard must not silently drop out",
    TIMEOUT,
    async () => {
      await assert.rejects(
        runWith({
          yaml: 'hooks:\n  PreToolUs:\n    - hooks: [{ type: command, command: "exit 2" }]\n',
        }),
        (error: Error & { code?: string }) =>
          error.code === "config_invalid" &&
          /config\.yaml:2:3 .*PreToolUs .*did you mean `PreToolUse`/.test(error.message),
      );
    },
  );
});

describe("what a hook says for the user", () => {
  it(
    "a systemMessage, and a Stop block that cannot keep the run going, reach the user as hook_message",
    TIMEOUT,
    async () => {
      const outcome = await runWith({
        claude: {
          ...preToolUse(`echo '{"systemMessage":"checked by the team guard"}'`),
          Stop: [{ hooks: [{ type: "command", command: "echo 'tests are failing' >&2; exit 2" }] }],
        },
      });
      assert.equal(outcome.ran, true);
      const said = outcome.diagnostics.filter((d) => d.code === "hook_message");
      // The message names the event and the command, then what the hook said.
      assert.deepEqual(
        said.map((d) => [d.severity, d.message.split(" hook ")[0], d.message.split('": ').at(-1)]),
        [
          ["info", "PreToolUse", "checked by the team guard"],
          ["info", "Stop", "asked the agent to go on (tests are failing); the run has ended here"],
        ],
      );
    },
  );
});

describe("answers of the events the kernel seams added", () => {
  it(
    "PermissionRequest denies in the person's place; the person is never asked",
    TIMEOUT,
    async () => {
      let asked = 0;
      const outcome = await runWith({
        claude: {
          PermissionRequest: [
            {
              matcher: "Bash",
              hooks: [
                {
                  type: "command",
                  command: `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no shell today"}}}'`,
                },
              ],
            },
          ],
        },
        policy: { mode: "default" },
        approve: () => {
          asked += 1;
          return "allow";
        },
      });
      assert.equal(asked, 0);
      assert.equal(outcome.ran, false);
      assert.equal(outcome.record?.approval, "rejected");
      assert.match(outcome.record?.result.error?.message ?? "", /no shell today/);
    },
  );

  it(
    "PermissionRequest allows without asking; exit 1 leaves the person to decide",
    TIMEOUT,
    async () => {
      let asked = 0;
      const approve = () => {
        asked += 1;
        return "deny" as const;
      };
      const allow = `echo '{"hookSpecificOutput":{"decision":{"behavior":"allow"}}}'`;
      const allowed = await runWith({
        claude: { PermissionRequest: [{ hooks: [{ type: "command", command: allow }] }] },
        policy: { mode: "default" },
        approve,
      });
      assert.equal(allowed.ran, true);
      assert.equal(asked, 0);
      const broken = await runWith({
        claude: { PermissionRequest: [{ hooks: [{ type: "command", command: "exit 1" }] }] },
        policy: { mode: "default" },
        approve,
      });
      assert.equal(asked, 1, "the person decided");
      assert.equal(broken.ran, false);
      assert.equal(broken.failures.length, 1);
    },
  );

  it(
    "PreCompact exit 2 holds the summary back; a hook matching only auto leaves a manual compaction alone",
    TIMEOUT,
    async () => {
      const steps: ScriptedStep[] = [
        { tool_calls: [{ id: "c1", name: "run_command", arguments: { command: "echo one" } }] },
        { text: "first" },
        { text: "Summary." },
      ];
      const held = await runWith({
        claude: {
          PreCompact: [{ matcher: "manual", hooks: [{ type: "command", command: "exit 2" }] }],
        },
        steps,
        compact: true,
      });
      assert.equal(held.compaction, undefined, "not summarised");
      assert.equal(held.provider.requests.length, 2, "no summary request was sent");
      const done = await runWith({
        claude: {
          PreCompact: [{ matcher: "auto", hooks: [{ type: "command", command: "exit 2" }] }],
        },
        steps,
        compact: true,
      });
      assert.equal(done.compaction?.stage, "summary", "an auto-only matcher leaves /compact alone");
    },
  );

  it(
    "PostToolUseFailure runs for a failed call (not PostToolUse), and its exit 2 reaches the model",
    TIMEOUT,
    async () => {
      const outcome = await runWith({
        claude: {
          PostToolUse: [{ hooks: [{ type: "command", command: "echo never >&2; exit 2" }] }],
          PostToolUseFailure: [
            {
              matcher: "Bash",
              hooks: [
                {
                  type: "command",
                  command:
                    'grep -q \'"is_interrupt":false\' && echo "try ls first" >&2 && exit 2; exit 0',
                },
              ],
            },
          ],
        },
        steps: [
          { tool_calls: [{ id: "c1", name: "run_command", arguments: { command: "exit 3" } }] },
          { text: "done" },
        ],
      });
      assert.equal(outcome.record?.result.ok, false);
      const text = JSON.stringify(outcome.record?.result.content);
      assert.match(text, /\[PostToolUseFailure hook\] try ls first/);
      assert.doesNotMatch(text, /never/);
    },
  );
});

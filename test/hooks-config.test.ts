// Hooks from config in Claude Code's format, run as real commands against the real built-in
// tools: exit 2 blocks with stderr as the reason, the JSON decision denies or rewrites, the
// event's JSON arrives on stdin with Claude Code's tool names, a crashing or hanging guard
// fails closed, PostToolUse feedback and UserPromptSubmit, ~/.claude/settings.json read, and
// a project hook never runs before it is approved.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { createAgent, type ProjectApprovals, UsageError } from "@pseudoclaude/core";
import { builtinTools } from "@pseudoclaude/plugin-builtin-tools";
import { hooks } from "@pseudoclaude/plugin-hooks";
import {
  createTempWorkspace,
  ScriptedProvider,
  type ScriptedStep,
  type TempWorkspace,
} from "@pseudoclaude/testing";
import { withClaudeLayers } from "./support/claude-layers.js";

const TIMEOUT = { timeout: 30_000 };
const run = (command: string) => ({
  tool_calls: [{ id: "c1", name: "run_command", arguments: { command } }],
});

async function withHooks(
  yaml: string,
  steps: ScriptedStep[],
  body: (context: {
    agent: Awaited<ReturnType<typeof createAgent>>;
    provider: ScriptedProvider;
    workspace: TempWorkspace;
  }) => Promise<void>,
  options: {
    projectApprovals?: ProjectApprovals;
    setup?: (workspace: TempWorkspace) => Promise<void>;
    /** `diagnose`: go on past a broken hooks section (by default it stops the agent). */
    onError?: "diagnose";
  } = {},
): Promise<void> {
  const workspace = await createTempWorkspace("pc-hooks-");
  try {
    if (yaml) await workspace.writeConfig("user", yaml);
    await options.setup?.(workspace);
    const provider = new ScriptedProvider(steps);
    const agent = await createAgent({
      workspace: workspace.root,
      config: {
        ...withClaudeLayers(workspace),
        ...(options.onError ? { onError: options.onError } : {}),
      },
      provider,
      policy: { mode: "bypass" },
      plugins: [builtinTools(), hooks({ homeDir: workspace.home })],
      ...(options.projectApprovals ? { projectApprovals: options.projectApprovals } : {}),
    });
    try {
      await body({ agent, provider, workspace });
    } finally {
      await agent.close();
    }
  } finally {
    await workspace.cleanup();
  }
}

const lastResult = (provider: ScriptedProvider) => {
  const message = provider.requests.at(-1)?.messages.at(-1);
  return message?.role === "tool" ? message.result : undefined;
};

describe("hooks from config (Claude Code's format)", () => {
  it(
    "matches a tool by any alias it declares and names it by its first (MultiEdit is edit_file)",
    TIMEOUT,
    async () => {
      await withHooks(
        `hooks:
  PreToolUse:
    - matcher: MultiEdit
      hooks:
        - type: command
          command: 'cat > "$CLAUDE_PROJECT_DIR/stdin.json"; echo "no edits" >&2; exit 2'
`,
        [
          {
            tool_calls: [
              {
                id: "e",
                name: "edit_file",
                arguments: { path: "a.md", old_string: "a", new_string: "b" },
              },
            ],
          },
          { text: "ok" },
        ],
        async ({ agent, workspace }) => {
          await workspace.write("a.md", "a\n");
          const result = await agent.run("edit");
          assert.equal(result.toolCalls[0]?.result.error?.message, "no edits");
          const stdin = JSON.parse(await readFile(path.join(workspace.root, "stdin.json"), "utf8"));
          assert.equal(stdin.tool_name, "Edit");
          assert.equal(await readFile(path.join(workspace.root, "a.md"), "utf8"), "a\n");
        },
      );
    },
  );

  it(
    "blocks with exit 2, stderr as the reason; the hook got the event's JSON on stdin",
    TIMEOUT,
    async () => {
      await withHooks(
        `hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: 'cat > "$CLAUDE_PROJECT_DIR/stdin.json"; echo "rm is not allowed here" >&2; exit 2'
`,
        [run("rm -rf build"), { text: "ok" }],
        async ({ agent, provider, workspace }) => {
          const result = await agent.run("clean up");
          assert.equal(result.toolCalls[0]?.result.error?.code, "denied");
          assert.equal(lastResult(provider)?.error?.message, "rm is not allowed here");
          const stdin = JSON.parse(await readFile(path.join(workspace.root, "stdin.json"), "utf8"));
          assert.equal(stdin.hook_event_name, "PreToolUse");
          assert.equal(stdin.tool_name, "Bash", "Claude Code's name for run_command");
          assert.deepEqual(stdin.tool_input, { command: "rm -rf build" });
          assert.equal(stdin.cwd, workspace.root);
          assert.equal(typeof stdin.session_id, "string");
        },
      );
    },
  );

  it(
    "follows the JSON decision: deny with a reason, or run with updatedInput",
    TIMEOUT,
    async () => {
      const decide = `printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no network"}}'`;
      const rewrite = `printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rewritten"}}}'`;
      await withHooks(
        `hooks:
  PreToolUse:
    - matcher: "run_command"
      hooks:
        - { type: command, command: ${JSON.stringify(rewrite)} }
    - matcher: "Read|Write"
      hooks:
        - { type: command, command: ${JSON.stringify(decide)} }
`,
        [
          run("echo original"),
          { tool_calls: [{ id: "r", name: "read_file", arguments: { path: "x.txt" } }] },
          { text: "done" },
        ],
        async ({ agent }) => {
          const result = await agent.run("go");
          const [command, read] = result.toolCalls;
          assert.deepEqual(command?.arguments, { command: "echo rewritten" });
          assert.match(JSON.stringify(command?.result.content), /rewritten/);
          assert.equal(command?.hooks?.[0]?.action, "rewrite");
          assert.equal(read?.result.error?.code, "denied");
          assert.equal(read?.result.error?.message, "no network");
        },
      );
    },
  );

  it(
    "fails closed when a guard crashes or hangs, and open only where configured",
    TIMEOUT,
    async () => {
      await withHooks(
        `hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - { type: command, command: "exit 1" }
    - matcher: Glob
      hooks:
        - { type: command, command: "sleep 30", timeout: 1 }
    - matcher: Grep
      hooks:
        - { type: command, command: "exit 3", on_failure: continue }
`,
        [
          run("echo hi"),
          { tool_calls: [{ id: "g", name: "glob", arguments: { pattern: "*" } }] },
          { tool_calls: [{ id: "s", name: "grep", arguments: { pattern: "x" } }] },
          { text: "done" },
        ],
        async ({ agent }) => {
          const started = Date.now();
          const result = await agent.run("go");
          const [crashed, hung, open] = result.toolCalls;
          assert.match(
            crashed?.result.error?.message ?? "",
            /failed \(it exited with 1\), so it was blocked/,
          );
          assert.match(hung?.result.error?.message ?? "", /did not finish within 1 s/);
          assert.ok(Date.now() - started < 10_000, "the hanging hook was ended at its timeout");
          assert.equal(open?.result.error?.code, undefined, "on_failure: continue lets it run");
          const failures = agent
            .diagnostics()
            .filter((diagnostic) => diagnostic.code === "hook_failed");
          assert.equal(failures.length, 3);
        },
      );
    },
  );

  it(
    "feeds PostToolUse blocks back, blocks or adds to prompts, and reads ~/.claude/settings.json",
    TIMEOUT,
    async () => {
      await withHooks(
        `hooks:
  UserPromptSubmit:
    - hooks:
        - type: command
          command: 'grep -q password && { echo "no passwords in prompts" >&2; exit 2; }; echo "Team rule: be brief."'
`,
        [
          { expect: { messages_include: ["Team rule: be brief."] }, ...run("echo hi") },
          { text: "ok" },
        ],
        async ({ agent, provider }) => {
          await assert.rejects(
            agent.run("my password is hunter2"),
            (error: unknown) =>
              error instanceof UsageError && /no passwords in prompts/.test(error.message),
          );
          await agent.run("say hi");
          const result = lastResult(provider);
          assert.match(
            JSON.stringify(result?.content),
            /\[PostToolUse hook\] output checked: fine/,
          );
        },
        {
          setup: async (workspace) => {
            await mkdir(path.join(workspace.home, ".claude"), { recursive: true });
            await writeFile(
              path.join(workspace.home, ".claude", "settings.json"),
              JSON.stringify({
                hooks: {
                  PostToolUse: [
                    {
                      matcher: "Bash",
                      hooks: [
                        { type: "command", command: "echo 'output checked: fine' >&2; exit 2" },
                      ],
                    },
                  ],
                },
              }),
            );
          },
        },
      );
    },
  );

  it("never runs a project hook the user has not approved", TIMEOUT, async () => {
    const setup = async (workspace: TempWorkspace) => {
      await mkdir(path.join(workspace.root, ".claude"), { recursive: true });
      await writeFile(
        path.join(workspace.root, ".claude", "settings.json"),
        JSON.stringify({
          hooks: {
            PreToolUse: [
              { hooks: [{ type: "command", command: 'touch "$CLAUDE_PROJECT_DIR/ran"' }] },
            ],
          },
        }),
      );
    };
    await withHooks(
      "",
      [run("echo hi"), { text: "ok" }],
      async ({ agent, workspace }) => {
        await agent.run("go");
        assert.ok(!existsSync(path.join(workspace.root, "ran")), "the project hook did not run");
        const note = agent
          .diagnostics()
          .find((diagnostic) => diagnostic.code === "hook_needs_approval");
        assert.match(note?.message ?? "", /PreToolUse: touch .* is not approved/);
      },
      { setup },
    );
    await withHooks(
      "",
      [run("echo hi"), { text: "ok" }],
      async ({ agent, workspace }) => {
        await agent.run("go");
        assert.ok(existsSync(path.join(workspace.root, "ran")), "approved, it runs");
      },
      { setup, projectApprovals: "all" },
    );
  });
  it(
    "places what does not fit at its line, in our config and in Claude Code's settings",
    TIMEOUT,
    async () => {
      const setup = async (workspace: TempWorkspace) => {
        await mkdir(path.join(workspace.root, ".claude"), { recursive: true });
        await writeFile(
          path.join(workspace.root, ".claude", "settings.json"),
          '{\n  "hooks": {\n    "PreToolUse": [\n      { "matcher": "(", "hooks": [] }\n    ]\n  }\n}\n',
        );
        await mkdir(path.join(workspace.home, ".claude"), { recursive: true });
        await writeFile(path.join(workspace.home, ".claude", "settings.json"), '{ "hooks": [1, }');
      };
      // A guard of our own config that cannot be read stops the agent before anything runs.
      await assert.rejects(
        withHooks(
          "hooks:\n  PreToolUse:\n    - hooks:\n        - type: command\n",
          [],
          async () => {
            assert.fail("the agent started");
          },
        ),
        (error: Error & { code?: string }) =>
          error.code === "config_invalid" &&
          /config\.yaml:4:11 .*hooks\.PreToolUse\.0\.hooks\.0\.command/.test(error.message),
      );
      await withHooks(
        "hooks:\n  PreToolUse:\n    - hooks:\n        - type: command\n",
        [],
        async ({ agent, workspace }) => {
          const found = agent.diagnostics().filter((d) => d.code === "hooks_invalid");
          const where = (d: (typeof found)[number]) => [
            path.basename(path.dirname(d.file ?? "")),
            d.line,
            d.severity,
          ];
          // The broken settings.json is the config loader's to report (it stops a run unless
          // told to go on), at line 1; the hooks do not say it again.
          const broken = agent.diagnostics().filter((d) => d.code === "config_yaml_error");
          assert.ok(broken.length >= 1);
          assert.ok(broken.every((d) => where(d).join() === ".claude,1,error" && d.blocking));
          assert.equal(found.filter((d) => d.severity === "warning").length, 0);
          assert.deepEqual(found.filter((d) => d.severity === "error").map(where), [
            [".PseudoClaude", 4, "error"],
            [".claude", 4, "error"],
          ]);
          assert.match(broken[0]!.message, /^Broken JSON in Claude Code settings .*settings\.json/);
          const [ours, claudes] = found.filter((d) => d.severity === "error");
          assert.match(
            ours!.message,
            /hooks\.PreToolUse\.0\.hooks\.0\.command: .*they are not loaded/,
          );
          assert.match(
            claudes!.message,
            /Hook matcher "\(" in .*settings\.json is not a regular expression/,
          );
          assert.ok(
            found.every(
              (d) => d.file?.startsWith(workspace.home) || d.file?.startsWith(workspace.root),
            ),
          );
        },
        { setup, onError: "diagnose" },
      );
    },
  );
});

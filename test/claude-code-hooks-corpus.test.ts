// Real users' Claude Code hook setups, run through the real agent and the real CLI: two public
// .claude/settings.json (test/fixtures/claude-code-corpus/hooks, see PROVENANCE.md) with every
// one of their events run at its point of the loop with Claude Code's stdin JSON; the same
// files with their scripts missing (hooks written for another project) reporting each failure
// and counting it in `pseudoclaude hooks` while every call goes on; every Claude Code event of
// the largest public setup run or reported at its line; settings.local.json under the same
// consent as settings.json.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { chmod, copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
  type Agent,
  createAgent,
  type Diagnostic,
  type ProjectApprovals,
  subAgent,
} from "@pseudoclaude/core";
import { builtinTools } from "@pseudoclaude/plugin-builtin-tools";
import { hookSubject, hooks } from "@pseudoclaude/plugin-hooks";
import {
  createTempWorkspace,
  ScriptedProvider,
  type ScriptedStep,
  type TempWorkspace,
} from "@pseudoclaude/testing";
import { withClaudeLayers } from "./support/claude-layers.js";
import { parseJson, runCli } from "./support/cli.js";

const TIMEOUT = { timeout: 60_000 };
const CORPUS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "fixtures",
  "claude-code-corpus",
  "hooks",
);
const DAEMON = path.join(CORPUS, "claude-code-hooks-daemon", ".claude", "settings.json");
const HERALD = path.join(CORPUS, "claude-code-hooks-herald", ".claude", "settings.json");

interface Settings {
  hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ command: string }> }>>;
}
const settingsOf = async (file: string) => JSON.parse(await readFile(file, "utf8")) as Settings;
const commandsOf = (settings: Settings) =>
  Object.values(settings.hooks).flatMap((groups) =>
    groups.flatMap((group) => group.hooks.map((hook) => hook.command)),
  );

/** A script that appends the event's JSON (its stdin) to `log` in the workspace, one line each. */
const recorder = (log: string) =>
  `#!/bin/sh\nprintf '%s\\n' "$(cat)" >> "$CLAUDE_PROJECT_DIR/${log}"\n`;

async function writeScript(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  await chmod(file, 0o755);
}

async function readLog(workspace: TempWorkspace, log: string): Promise<Record<string, unknown>[]> {
  const file = path.join(workspace.root, log);
  if (!existsSync(file)) return [];
  return (await readFile(file, "utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * The corpus's two files as one workspace's settings: the daemon's as `.claude/settings.json`,
 * the herald's as `.claude/settings.local.json` (both read, as Claude Code reads both).
 * `record`: put the scripts they call in place as recorders (the herald runs `uv`, given a
 * stand-in on PATH); without it the scripts are missing, as in a project they were not
 * written for.
 */
async function corpusWorkspace(record: boolean): Promise<TempWorkspace> {
  const workspace = await createTempWorkspace("pc-cc-corpus-");
  await mkdir(path.join(workspace.root, ".claude"), { recursive: true });
  await copyFile(DAEMON, path.join(workspace.root, ".claude", "settings.json"));
  await copyFile(HERALD, path.join(workspace.root, ".claude", "settings.local.json"));
  if (record) {
    for (const command of commandsOf(await settingsOf(DAEMON))) {
      const script = command.replace('"$CLAUDE_PROJECT_DIR"/', "");
      await writeScript(path.join(workspace.root, script), recorder("daemon.jsonl"));
    }
    await writeScript(path.join(workspace.home, "bin", "uv"), recorder("herald.jsonl"));
  }
  return workspace;
}

/** What the agent is asked to do: write (asks a person), read a missing file (fails), delegate, answer. */
const STEPS: ScriptedStep[] = [
  {
    tool_calls: [
      { id: "w1", name: "write_file", arguments: { path: "notes.md", content: "remember" } },
    ],
  },
  { tool_calls: [{ id: "r1", name: "read_file", arguments: { path: "missing.md" } }] },
  { tool_calls: [{ id: "s1", name: "agent__helper", arguments: { prompt: "Read notes.md." } }] },
  { text: "notes.md says remember" }, // the sub-agent
  { text: "Done." },
  { text: "Again." }, // the second prompt
  { text: "Summary: a note was written." }, // agent.compact()
];

async function driveAgent(
  workspace: TempWorkspace,
  options: { projectApprovals?: ProjectApprovals; extraPath?: string } = {},
): Promise<{ diagnostics: Diagnostic[]; agent: Agent }> {
  const provider = new ScriptedProvider(STEPS);
  const diagnostics: Diagnostic[] = [];
  const agent = await createAgent({
    workspace: workspace.root,
    config: withClaudeLayers(workspace),
    provider,
    policy: { mode: "default" },
    approve: () => "allow",
    projectApprovals: options.projectApprovals ?? "all",
    plugins: [
      builtinTools(),
      hooks({ homeDir: workspace.home }),
      subAgent({
        name: "helper",
        description: "Reads files.",
        instructions: "Read what you are asked to.",
        tools: ["read_file"],
      }),
    ],
  });
  agent.on("diagnostic", (diagnostic) => diagnostics.push(diagnostic));
  diagnostics.push(...agent.diagnostics());
  try {
    const first = await agent.run("Write a note, then check it.");
    assert.equal(first.text, "Done.");
    assert.equal((await agent.run("Again?")).text, "Again.");
    assert.equal((await agent.compact())?.stage, "summary");
  } finally {
    await agent.close();
  }
  return { diagnostics, agent };
}

/** Run `body` with `dir` first on PATH (hooks inherit the agent's environment). */
async function withPath<T>(dir: string, body: () => Promise<T>): Promise<T> {
  const before = process.env.PATH;
  process.env.PATH = `${dir}${path.delimiter}${before ?? ""}`;
  try {
    return await body();
  } finally {
    process.env.PATH = before;
  }
}

describe("real Claude Code hook setups (corpus)", () => {
  it(
    "runs every event of both public setups at its point of the loop, with Claude Code's stdin JSON",
    TIMEOUT,
    async () => {
      const workspace = await corpusWorkspace(true);
      try {
        const { diagnostics } = await withPath(path.join(workspace.home, "bin"), () =>
          driveAgent(workspace),
        );
        assert.deepEqual(
          diagnostics.filter((d) => d.severity !== "info").map((d) => `${d.code}: ${d.message}`),
          [],
          "every hook ran and none failed",
        );
        for (const [file, log] of [
          [DAEMON, "daemon.jsonl"],
          [HERALD, "herald.jsonl"],
        ] as const) {
          const configured = Object.keys((await settingsOf(file)).hooks).sort();
          const events = await readLog(workspace, log);
          const seen = [...new Set(events.map((event) => String(event.hook_event_name)))].sort();
          assert.deepEqual(seen, configured, `${path.basename(path.dirname(path.dirname(file)))}`);
          const first = (name: string) => events.find((event) => event.hook_event_name === name);
          assert.equal(first("SessionStart")?.source, "startup");
          assert.equal(first("SessionStart")?.cwd, workspace.root);
          assert.equal(first("UserPromptSubmit")?.prompt, "Write a note, then check it.");
          assert.equal(first("PreToolUse")?.tool_name, "Write");
          assert.deepEqual(first("PreToolUse")?.tool_input, {
            path: "notes.md",
            content: "remember",
            file_path: "notes.md",
          });
          assert.equal(first("Notification")?.notification_type, "permission_prompt");
          assert.equal(first("Notification")?.message, "Claude needs your permission to use Write");
          assert.equal(first("SubagentStop")?.agent_type, "helper");
          assert.equal(first("SubagentStop")?.last_assistant_message, "notes.md says remember");
          assert.equal(first("Stop")?.last_assistant_message, "Done.");
          assert.equal(first("SessionEnd")?.reason, "other");
          // One session: SessionStart once for two prompts, SessionEnd once at close.
          assert.equal(events.filter((e) => e.hook_event_name === "SessionStart").length, 1);
          assert.equal(events.filter((e) => e.hook_event_name === "UserPromptSubmit").length, 2);
          assert.equal(events.filter((e) => e.hook_event_name === "SessionEnd").length, 1);
          if (log === "daemon.jsonl") {
            assert.equal(first("PermissionRequest")?.tool_name, "Write");
            assert.equal(first("PreCompact")?.trigger, "manual");
          }
        }
        assert.equal(await readFile(path.join(workspace.root, "notes.md"), "utf8"), "remember");
      } finally {
        await workspace.cleanup();
      }
    },
  );

  it(
    "with the scripts missing (hooks written for another project), every call goes on and every failure is said",
    TIMEOUT,
    async () => {
      const workspace = await corpusWorkspace(false);
      try {
        const { diagnostics } = await driveAgent(workspace);
        assert.equal(await readFile(path.join(workspace.root, "notes.md"), "utf8"), "remember");
        const failed = diagnostics.filter((d) => d.code === "hook_failed");
        assert.ok(failed.length >= 18, `every hook failed and said so (${failed.length})`);
        for (const failure of failed) {
          assert.equal(failure.severity, "error");
          assert.match(
            failure.message,
            /a non-blocking error, as in Claude Code: the agent goes on/,
          );
          assert.match(failure.message, /exited with 127/);
        }
        assert.ok(
          failed.some((d) => d.file?.endsWith("settings.local.json") && d.line !== undefined),
          "a failure names its file and line",
        );
      } finally {
        await workspace.cleanup();
      }
    },
  );

  it(
    "through the real CLI: a run with missing hook scripts exits 0, shows each failure on stderr, and hooks --json counts them",
    TIMEOUT,
    async () => {
      const workspace = await corpusWorkspace(false);
      try {
        await workspace.write(
          "script.json",
          JSON.stringify([
            { tool_calls: [{ name: "run_command", arguments: { command: "echo hi > out.txt" } }] },
            { text: "ok" },
          ]),
        );
        const run = await runCli(workspace, [
          "run",
          "go",
          "--script",
          "script.json",
          "--mode",
          "bypass",
          "--trust-project",
        ]);
        assert.equal(run.code, 0, run.stderr);
        assert.ok(existsSync(path.join(workspace.root, "out.txt")), "the command ran");
        assert.match(run.stderr, /PreToolUse hook .*pre-tool-use.* failed: it exited with 127/);
        const listed = parseJson<{
          hooks: Array<{ event: string; origin: string; failures: number; line: number | null }>;
        }>(await runCli(workspace, ["hooks", "--json"])).hooks;
        const pre = listed.filter((hook) => hook.event === "PreToolUse");
        assert.equal(pre.length, 2, "one PreToolUse hook from each file");
        for (const hook of pre) {
          assert.equal(hook.origin, "claude-code");
          assert.equal(hook.failures, 1);
          assert.equal(typeof hook.line, "number");
        }
        // The run was one session: each file's SessionStart and SessionEnd ran once.
        for (const event of ["SessionStart", "SessionEnd", "UserPromptSubmit", "Stop"])
          assert.deepEqual(
            listed.filter((hook) => hook.event === event).map((hook) => hook.failures),
            [1, 1],
            event,
          );
        const text = await runCli(workspace, ["hooks"]);
        assert.match(text.stdout, /PreToolUse .*failed 1x, last: it exited with 127/);
      } finally {
        await workspace.cleanup();
      }
    },
  );

  it(
    "runs or reports every event of the largest public setup (13 events, Setup among them), each unsupported one once at its line",
    TIMEOUT,
    async () => {
      // The event list of github.com/disler/claude-code-hooks-mastery (not copied: it has no
      // licence), each with a recorder of ours, plus a name Claude Code does not know.
      const events = [
        "PreToolUse",
        "PostToolUse",
        "Notification",
        "Stop",
        "SubagentStop",
        "UserPromptSubmit",
        "PreCompact",
        "SessionStart",
        "SessionEnd",
        "PermissionRequest",
        "PostToolUseFailure",
        "SubagentStart",
        "Setup",
        "BeforeLunch",
      ];
      const workspace = await createTempWorkspace("pc-cc-events-");
      try {
        await writeScript(path.join(workspace.home, "record.sh"), recorder("events.jsonl"));
        const settings = {
          hooks: Object.fromEntries(
            events.map((event) => [
              event,
              [{ hooks: [{ type: "command", command: path.join(workspace.home, "record.sh") }] }],
            ]),
          ),
        };
        await mkdir(path.join(workspace.home, ".claude"), { recursive: true });
        const text = JSON.stringify(settings, null, 2);
        await writeFile(path.join(workspace.home, ".claude", "settings.json"), text);
        const lineOf = (key: string) =>
          text.split("\n").findIndex((line) => line.includes(`"${key}":`)) + 1;
        const { diagnostics } = await driveAgent(workspace);
        const seen = new Set(
          (await readLog(workspace, "events.jsonl")).map((e) => String(e.hook_event_name)),
        );
        const unsupported = diagnostics.filter((d) => d.code === "hook_event_unsupported");
        assert.deepEqual(
          unsupported.map((d) => [d.item, d.line, d.severity]),
          [
            ["Setup", lineOf("Setup"), "warning"],
            ["BeforeLunch", lineOf("BeforeLunch"), "warning"],
          ],
        );
        assert.match(unsupported[0]?.message ?? "", /is Claude Code's but has no place/);
        assert.match(unsupported[1]?.message ?? "", /is not a Claude Code hook event/);
        for (const event of events.slice(0, 12)) assert.ok(seen.has(event), `${event} ran`);
        assert.equal(seen.size, 12);
        const log = await readLog(workspace, "events.jsonl");
        const failure = log.find((e) => e.hook_event_name === "PostToolUseFailure");
        assert.equal(failure?.tool_name, "Read");
        assert.equal(failure?.is_interrupt, false);
        assert.match(String(failure?.error), /missing\.md/);
        const start = log.find((e) => e.hook_event_name === "SubagentStart");
        assert.equal(start?.agent_type, "helper");
        assert.equal(start?.agent_id, "s1");
      } finally {
        await workspace.cleanup();
      }
    },
  );

  it(
    "reads .claude/settings.local.json under the same consent as settings.json: not run until approved",
    TIMEOUT,
    async () => {
      const workspace = await corpusWorkspace(true);
      try {
        const { diagnostics } = await withPath(path.join(workspace.home, "bin"), () =>
          driveAgent(workspace, { projectApprovals: "remembered" }),
        );
        assert.deepEqual(await readLog(workspace, "daemon.jsonl"), []);
        assert.deepEqual(await readLog(workspace, "herald.jsonl"), []);
        const waiting = diagnostics.filter((d) => d.code === "hook_needs_approval");
        assert.ok(waiting.some((d) => d.file?.endsWith(".claude/settings.local.json")));
        assert.ok(waiting.some((d) => d.file?.endsWith(".claude/settings.json")));
        // What is asked says that a PermissionRequest (or PreToolUse) hook can approve for you.
        const subject = hookSubject({ event: "PermissionRequest", matcher: "", command: "x" });
        assert.ok(subject.effects?.includes("may approve or deny tool calls for you"));
        assert.ok(
          !hookSubject({ event: "Stop", matcher: "", command: "x" }).effects?.includes(
            "may approve or deny tool calls for you",
          ),
        );
      } finally {
        await workspace.cleanup();
      }
    },
  );
});

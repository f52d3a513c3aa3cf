// Claude Code's settings files through the real CLI, as a Claude Code user has them: the
// user's deny rules hold, a repository's allow rules wait for consent while its deny rules
// apply at once, managed settings hold against everything, Claude Code's modes mean the same
// here, and the layers' precedence on a conflict is Claude Code's.
import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { fixture } from "#mcp-test/mcp-fixtures.js";
import { writeClaudeSettings as settings } from "./support/claude-settings.js";
import { parseJson, runCli } from "./support/cli.js";

async function put(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

describe("Claude Code's settings files, through the CLI", () => {
  let workspace: TempWorkspace;
  beforeEach(async () => {
    workspace = await createTempWorkspace("pc-claude-settings-");
    await workspace.write("secret.txt", "top secret\n");
    await workspace.write("notes.txt", "keep me\n");
  });
  afterEach(() => workspace.cleanup());

  it("a user's deny rules in ~/.claude/settings.json refuse read_file and run_command", async () => {
    await settings(workspace, "user", {
      permissions: { deny: ["Read(./secret.txt)", "Bash(rm:*)"] },
    });
    const read = await runCli(workspace, ["call", "read_file", '{"path":"secret.txt"}']);
    assert.equal(read.code, 1, read.stdout);
    assert.match(read.stderr, /denied: Rule deny: "Read\(\.\/secret\.txt\)" \(user\)/);
    assert.doesNotMatch(read.stdout, /top secret/);
    const rm = await runCli(workspace, [
      "call",
      "run_command",
      '{"command":"rm notes.txt"}',
      "--yes",
    ]);
    assert.equal(rm.code, 1);
    assert.match(rm.stderr, /denied: Rule deny: "Bash\(rm:\*\)" \(user\)/);
    assert.equal(await readFile(path.join(workspace.root, "notes.txt"), "utf8"), "keep me\n");
    // Another file is still readable: the rule is the rule, not a blanket refusal.
    const other = await runCli(workspace, ["call", "read_file", '{"path":"notes.txt"}']);
    assert.equal(other.code, 0, other.stderr);
  });

  it("a repository's deny rules apply at once; its allow rules only after trust approve", async () => {
    await settings(workspace, "project", {
      permissions: { allow: ["Bash(echo:*)"], deny: ["Read(./notes.txt)"] },
    });
    const denied = await runCli(workspace, ["call", "read_file", '{"path":"notes.txt"}']);
    assert.equal(denied.code, 1);
    assert.match(denied.stderr, /denied: Rule deny: "Read\(\.\/notes\.txt\)" \(project\)/);
    const before = await runCli(workspace, ["call", "run_command", '{"command":"echo hello"}']);
    assert.equal(before.code, 1, "no allow rule of the workspace counts yet");
    assert.match(before.stderr, /pseudoclaude trust approve setting:permissions/);
    assert.match(before.stderr, /\.claude\/settings\.json:\d+/);
    const trust = await runCli(workspace, ["trust", "approve"]);
    assert.equal(trust.code, 0, trust.stderr);
    assert.match(trust.stdout, /approved setting:permissions: allow Bash\(echo:\*\)/);
    const after = await runCli(workspace, ["call", "run_command", '{"command":"echo hello"}']);
    assert.equal(after.code, 0, after.stderr);
    assert.match(after.stdout, /hello/);
  });

  it("a repository's enableAllProjectMcpServers: true starts no server of its .mcp.json", async () => {
    await workspace.write(
      ".mcp.json",
      JSON.stringify({
        mcpServers: { beh: { command: process.execPath, args: [fixture("behaviours")] } },
      }),
    );
    await settings(workspace, "project", { enableAllProjectMcpServers: true });
    const run = await runCli(workspace, ["tools", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const json = parseJson<{
      tools: Array<{ name: string }>;
      sources: Array<{ id: string; state: string }>;
      diagnostics: Array<{ code: string; message: string }>;
    }>(run);
    assert.ok(!json.tools.some((tool) => tool.name.startsWith("mcp__beh__")));
    assert.equal(json.sources.find((source) => source.id === "mcp:beh")?.state, "needs-approval");
    assert.ok(
      json.diagnostics.some(
        (d) => d.code === "mcp_json_choice_ignored" && /not your consent/.test(d.message),
      ),
      "it says the repository's choice is not consent",
    );
  });

  it("the user's enabledMcpjsonServers starts a .mcp.json server; disabledMcpjsonServers stops one", async () => {
    await workspace.write(
      ".mcp.json",
      JSON.stringify({
        mcpServers: {
          beh: { command: process.execPath, args: [fixture("behaviours")] },
          other: { command: process.execPath, args: [fixture("behaviours")] },
        },
      }),
    );
    await settings(workspace, "user", { enabledMcpjsonServers: ["beh", "other"] });
    await settings(workspace, "local", { disabledMcpjsonServers: ["other"] });
    const run = await runCli(workspace, ["tools", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const json = parseJson<{
      tools: Array<{ name: string }>;
      sources: Array<{ id: string; state: string }>;
    }>(run);
    assert.equal(json.sources.find((source) => source.id === "mcp:beh")?.state, "ready");
    assert.ok(json.tools.some((tool) => tool.name.startsWith("mcp__beh__")));
    assert.ok(!json.sources.some((source) => source.id === "mcp:other"), "disabled: not started");
  });

  it("managed settings hold against a user's allow rule, --yes, --trust-project and --mode bypass", async () => {
    await settings(workspace, "user", {
      permissions: { allow: ["Bash(echo:*)"], defaultMode: "bypassPermissions" },
    });
    await settings(workspace, "project", { permissions: { allow: ["Bash(echo:*)"] } });
    const managed = await settings(workspace, "managed", {
      permissions: { deny: ["Bash(echo:*)"], disableBypassPermissionsMode: "disable" },
    });
    const call = await runCli(workspace, [
      "call",
      "run_command",
      '{"command":"echo managed"}',
      "--yes",
      "--trust-project",
    ]);
    assert.equal(call.code, 1);
    assert.match(call.stderr, /denied: Rule deny: "Bash\(echo:\*\)" \(managed\)/);
    assert.match(
      call.stderr,
      /lowered to "accept_edits": bypass mode is disabled by the managed settings/,
    );
    const bypass = await runCli(workspace, [
      "call",
      "read_file",
      '{"path":"notes.txt"}',
      "--mode",
      "bypass",
    ]);
    assert.equal(bypass.code, 2);
    assert.match(
      bypass.stderr,
      new RegExp(
        `Mode "bypass" is not allowed: bypass mode is disabled by the managed settings \\(${managed.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\)`,
      ),
    );
    const config = await runCli(workspace, ["config", "--json"]);
    const values = parseJson<{
      values: Array<{ path: string; value: unknown; layer: string; file: string }>;
    }>(config).values;
    assert.ok(
      values.some(
        (value) =>
          value.layer === "managed" && value.value === "Bash(echo:*)" && value.file === managed,
      ),
      "config marks the managed value",
    );
  });

  it("additionalDirectories: the user's apply at once, a repository's after trust approve", async () => {
    const outside = path.join(workspace.home, "shared-docs");
    await put(path.join(outside, "guide.md"), "the shared guide\n");
    const read = () =>
      runCli(workspace, [
        "call",
        "read_file",
        JSON.stringify({ path: path.join(outside, "guide.md") }),
      ]);
    const before = await read();
    assert.equal(before.code, 1, "outside the workspace, no extra root yet");
    await settings(workspace, "project", { permissions: { additionalDirectories: [outside] } });
    const unapproved = await read();
    assert.equal(unapproved.code, 1, "a repository's directory waits for consent");
    assert.match(unapproved.stderr, /pseudoclaude trust approve setting:builtin_tools/);
    assert.match(unapproved.stderr, /\.claude\/settings\.json:\d+/);
    const trust = await runCli(workspace, ["trust", "approve"]);
    assert.equal(trust.code, 0, trust.stderr);
    const approved = await read();
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(approved.stdout, /the shared guide/);
    await settings(workspace, "project", {});
    await settings(workspace, "user", { permissions: { additionalDirectories: [outside] } });
    const user = await read();
    assert.equal(user.code, 0, user.stderr);
  });

  it("env: the user's variables reach run_command at once, a repository's after trust approve", async () => {
    const echo = () =>
      runCli(workspace, [
        "call",
        "run_command",
        '{"command":"echo [$FROM_USER][$FROM_REPO]"}',
        "--yes",
      ]);
    await settings(workspace, "user", { env: { FROM_USER: "user-value" } });
    await settings(workspace, "project", { env: { FROM_REPO: "repo-value" } });
    const before = await echo();
    assert.equal(before.code, 0, before.stderr);
    assert.match(before.stdout, /\[user-value\]\[\]/, "the repository's variable waits");
    assert.match(before.stderr, /env FROM_REPO/);
    assert.equal((await runCli(workspace, ["trust", "approve"])).code, 0);
    const after = await echo();
    assert.match(after.stdout, /\[user-value\]\[repo-value\]/);
  });

  it("defaultMode: plan from the user's file refuses a write", async () => {
    await settings(workspace, "user", { permissions: { defaultMode: "plan" } });
    const write = await runCli(workspace, [
      "call",
      "write_file",
      '{"path":"new.txt","content":"x"}',
      "--yes",
    ]);
    assert.equal(write.code, 1);
    assert.match(write.stderr, /Plan mode allows only read-only tools/);
  });

  it("on a conflict, the precedence is Claude Code's: managed, then local, then shared, then the user's", async () => {
    const mode = async () => {
      const write = await runCli(workspace, [
        "call",
        "write_file",
        '{"path":"w.txt","content":"x"}',
      ]);
      // accept_edits lets the write run with no question; plan refuses it; default asks (no one can).
      if (write.code === 0) return "accept_edits";
      return /Plan mode/.test(write.stderr) ? "plan" : "default";
    };
    await settings(workspace, "user", { permissions: { defaultMode: "acceptEdits" } });
    assert.equal(await mode(), "accept_edits", "the user's own mode");
    await settings(workspace, "project", { permissions: { defaultMode: "plan" } });
    assert.equal(await mode(), "plan", "a stricter shared project mode applies at once");
    await settings(workspace, "local", { permissions: { defaultMode: "default" } });
    assert.equal(await mode(), "default", "the local file over the shared one");
    await settings(workspace, "managed", { permissions: { defaultMode: "plan" } });
    assert.equal(await mode(), "plan", "managed over everything");
    // Our own config's project file comes after Claude Code's project files.
    await settings(workspace, "managed", {});
    await workspace.writeConfig("project", "permissions:\n  mode: plan\n");
    assert.equal(await mode(), "plan");
  });

  it("config lists the instruction files a run would send, in order, with their tokens", async () => {
    await workspace.write("CLAUDE.md", "# Conventions\nUse tabs.\n");
    await workspace.write("AGENTS.md", "Run npm test before committing.\n");
    const run = await runCli(workspace, ["config", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const report = parseJson<{
      instructions: { kind: string; files: Array<{ display: string; tokens: number }> };
    }>(run).instructions;
    assert.equal(report.kind, "on");
    assert.deepEqual(
      report.files.map((file) => file.display),
      ["CLAUDE.md", "AGENTS.md"],
    );
    assert.ok(report.files.every((file) => file.tokens > 0));
    const text = await runCli(workspace, ["config"]);
    assert.match(
      text.stdout,
      /instruction files: 2 in the system prompt, ~\d+ tokens:\n {2}CLAUDE\.md {2}~\d+ tokens\n {2}AGENTS\.md/,
    );
  });

  it("a settings file that cannot be read stops the run, at its line", async () => {
    await put(
      path.join(workspace.home, ".claude", "settings.json"),
      '{ "permissions": { "deny": ["Read(./secret.txt)"] ',
    );
    const read = await runCli(workspace, ["call", "read_file", '{"path":"secret.txt"}']);
    assert.equal(read.code, 2, read.stdout);
    assert.match(read.stderr, /settings\.json:1/);
    assert.doesNotMatch(read.stdout, /top secret/);
  });
});

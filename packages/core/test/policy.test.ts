import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";
import { LoadedConfig } from "../src/config/load-config.js";
import { type Diagnostic } from "../src/contracts/diagnostic.js";
import { commandMatches } from "../src/policy/command-match.js";
import { createPolicyEngine } from "../src/policy/default-policy-engine.js";
import { buildPolicySettings } from "../src/policy/permissions-section.js";
import { type PolicySettings, type RuleSpec } from "../src/policy/policy-settings.js";
import { def, readTool, shell, writeTool } from "./support/tool-definitions.js";

const WORKSPACE = "/ws";

const remote = def("mcp__context7__search_docs");

function engine(partial: Partial<PolicySettings> & { rules?: RuleSpec[] } = {}) {
  return createPolicyEngine({ mode: "default", rules: [], workspace: WORKSPACE, ...partial });
}
function rule(verdict: RuleSpec["verdict"], pattern: string, origin = "code"): RuleSpec {
  return { verdict, pattern, origin };
}

describe("default policy engine", () => {
  it("allows read-only tools and asks for side effects by default", () => {
    const policy = engine();
    assert.equal(policy.decide(readTool, { path: "a" }).verdict, "allow");
    const asked = policy.decide(remote, {});
    assert.equal(asked.verdict, "ask");
    assert.deepEqual(asked.matched, { kind: "safety", safety: "side_effect" });
  });

  it("lets deny win over allow and ask whatever the order and origin", () => {
    const policy = engine({
      rules: [
        rule("allow", "mcp__context7__*", "project"),
        rule("ask", "mcp__*"),
        rule("deny", "mcp__context7__search_docs", "user"),
      ],
    });
    const decision = policy.decide(remote, {});
    assert.equal(decision.verdict, "deny");
    assert.deepEqual(decision.matched, {
      kind: "rule",
      verdict: "deny",
      pattern: "mcp__context7__search_docs",
      origin: "user",
    });
  });

  it("prefers ask rules over allow rules", () => {
    const policy = engine({
      rules: [rule("allow", "mcp__context7__*"), rule("ask", "mcp__context7__search_*")],
    });
    assert.equal(policy.decide(remote, {}).verdict, "ask");
  });

  it("matches a tool by an alias it declares, never a tool without that alias", () => {
    const bash = def("run_command", {
      safety: "side_effect",
      aliases: ["Bash"],
      permissionKey: { argument: "command", match: "command" },
    });
    const policy = engine({
      rules: [rule("allow", "Bash(git status*)"), rule("deny", "Bash(rm *)")],
    });
    assert.equal(policy.decide(bash, { command: "git status -s" }).verdict, "allow");
    const denied = policy.decide(bash, { command: "rm -rf x" });
    assert.equal(denied.verdict, "deny");
    assert.match(denied.reason, /Bash\(rm \*\)/);
    // An MCP tool that happens to be called Bash remotely has no alias: the rules are not its.
    const lookalike = def("mcp__evil__Bash_tool", {
      permissionKey: { argument: "command", match: "command" },
    });
    assert.equal(policy.decide(lookalike, { command: "git status" }).verdict, "ask");
    // A deny rule on the bare alias removes the tool, as one on its name does.
    assert.equal(engine({ rules: [rule("deny", "Bash")] }).isOffered(bash), false);
  });

  it("matches tool-name globs such as mcp__context7__*", () => {
    const policy = engine({ rules: [rule("allow", "mcp__context7__*")] });
    assert.equal(policy.decide(remote, {}).verdict, "allow");
    assert.equal(policy.decide(def("mcp__other__search_docs"), {}).verdict, "ask");
  });

  it("matches command prefixes and refuses compound commands for allow rules", () => {
    const policy = engine({ rules: [rule("allow", "run_command(npm test*)")] });
    assert.equal(policy.decide(shell, { command: "npm test" }).verdict, "allow");
    assert.equal(policy.decide(shell, { command: "npm test -- --watch" }).verdict, "allow");
    assert.equal(policy.decide(shell, { command: "npm test && rm -rf ~" }).verdict, "ask");
    assert.equal(policy.decide(shell, { command: "npm test $(rm -rf ~)" }).verdict, "ask");
    assert.equal(policy.decide(shell, { command: "npm install" }).verdict, "ask");
  });

  it("splits a command for allow rules as the shell does, the same way deny rules do", () => {
    const policy = engine({ rules: [rule("allow", "run_command(echo *)")] });
    // A separator inside quotes is text: this is one echo.
    assert.equal(policy.decide(shell, { command: 'echo "a; b && c"' }).verdict, "allow");
    assert.equal(policy.decide(shell, { command: "echo 'x | y'" }).verdict, "allow");
    // Outside quotes, or after a quote the shell closes, it starts another command.
    assert.equal(policy.decide(shell, { command: 'echo "a"; rm -rf ~' }).verdict, "ask");
    assert.equal(policy.decide(shell, { command: "echo 'a\\' ; rm -rf ~" }).verdict, "ask");
    assert.equal(policy.decide(shell, { command: "(echo a; rm -rf ~)" }).verdict, "ask");
    assert.equal(policy.decide(shell, { command: "echo a\nrm -rf ~" }).verdict, "ask");
  });

  it("denies a compound command when any part matches a deny rule", () => {
    const policy = engine({ mode: "bypass", rules: [rule("deny", "run_command(rm *)")] });
    assert.equal(policy.decide(shell, { command: "ls; rm -rf /" }).verdict, "deny");
    assert.equal(policy.decide(shell, { command: "ls" }).verdict, "allow");
  });

  it("sees through variable assignments, wrappers and program paths for deny rules only", () => {
    const policy = engine({ mode: "bypass", rules: [rule("deny", "run_command(rm *)")] });
    for (const command of [
      "FOO=1 rm -rf x",
      "sudo rm -rf x",
      "/bin/rm -rf x",
      "ls && env A=b nohup /usr/bin/rm x",
    ]) {
      assert.equal(policy.decide(shell, { command }).verdict, "deny", command);
    }
    const allowing = engine({ rules: [rule("allow", "run_command(npm test*)")] });
    assert.equal(
      allowing.decide(shell, { command: "NODE_OPTIONS=--require=x npm test" }).verdict,
      "ask",
    );
  });

  it("supports the `:*` prefix form without matching longer words", () => {
    assert.equal(commandMatches("git status:*", "git status", "every"), true);
    assert.equal(commandMatches("git status:*", "git status --short", "every"), true);
    assert.equal(commandMatches("git status:*", "git statusx", "every"), false);
  });

  it("matches paths gitignore-style relative to the workspace", () => {
    const policy = engine({
      rules: [rule("allow", "write_file(src/**)"), rule("deny", "write_file(*.env)")],
    });
    assert.equal(policy.decide(writeTool, { path: "src/a/b.ts" }).verdict, "allow");
    assert.equal(policy.decide(writeTool, { path: "/ws/src/c.ts" }).verdict, "allow");
    assert.equal(policy.decide(writeTool, { path: "docs/a.md" }).verdict, "ask");
    assert.equal(policy.decide(writeTool, { path: "src/../../etc/passwd" }).verdict, "ask");
    assert.equal(policy.decide(writeTool, { path: "config/prod.env" }).verdict, "deny");
  });

  it("judges a path by its real target too, so a symbolic link cannot dodge a deny rule", async () => {
    const { mkdtemp, mkdir, symlink, rm } = await import("node:fs/promises");
    const os = await import("node:os");
    const base = await mkdtemp(path.join(os.tmpdir(), "pc-policy-"));
    try {
      const ws = path.join(base, "ws");
      await mkdir(path.join(ws, "secrets"), { recursive: true });
      await mkdir(path.join(ws, "src"), { recursive: true });
      await mkdir(path.join(base, "outside"));
      await symlink(path.join(ws, "secrets"), path.join(ws, "alias"));
      await symlink(path.join(base, "outside"), path.join(ws, "src", "escape"));
      const policy = createPolicyEngine({
        mode: "default",
        workspace: ws,
        rules: [rule("deny", "write_file(secrets/**)"), rule("allow", "write_file(src/**)")],
      });
      assert.equal(policy.decide(writeTool, { path: "alias/key" }).verdict, "deny");
      assert.equal(policy.decide(writeTool, { path: "src/new/file.ts" }).verdict, "allow");
      assert.equal(
        policy.decide(writeTool, { path: "src/escape/file.ts" }).verdict,
        "ask",
        "an allow rule needs the real target inside too",
      );
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  it("never matches an argument pattern for a tool that does not declare how", () => {
    const policy = engine({ rules: [rule("allow", "mcp__context7__search_docs(*)")] });
    assert.equal(policy.decide(remote, { query: "x" }).verdict, "ask");
  });

  it("in plan mode offers and allows only read-only tools", () => {
    const policy = engine({ mode: "plan", rules: [rule("allow", "*")] });
    assert.equal(policy.isOffered(readTool), true);
    assert.equal(policy.isOffered(writeTool), false);
    const decision = policy.decide(writeTool, { path: "src/a" });
    assert.equal(decision.verdict, "deny");
    assert.deepEqual(decision.matched, { kind: "mode", mode: "plan" });
  });

  it("in accept_edits mode allows edit tools but still asks for commands", () => {
    const policy = engine({ mode: "accept_edits" });
    assert.equal(policy.decide(writeTool, { path: "a" }).verdict, "allow");
    assert.equal(policy.decide(shell, { command: "ls" }).verdict, "ask");
  });

  it("in bypass mode allows everything a deny rule does not match", () => {
    const policy = engine({ mode: "bypass", rules: [rule("deny", "mcp__*")] });
    assert.equal(policy.decide(shell, { command: "anything" }).verdict, "allow");
    assert.equal(policy.decide(remote, {}).verdict, "deny");
  });

  it("in bypass mode still asks where a managed ask rule matches, and only there", () => {
    const policy = engine({
      mode: "bypass",
      rules: [rule("ask", "run_command(ls *)"), rule("ask", "run_command(git *)", "managed")],
    });
    assert.equal(policy.decide(shell, { command: "ls -la" }).verdict, "allow");
    const asked = policy.decide(shell, { command: "git push" });
    assert.equal(asked.verdict, "ask");
    assert.deepEqual(asked.matched, {
      kind: "rule",
      verdict: "ask",
      pattern: "run_command(git *)",
      origin: "managed",
    });
  });

  it("hides tools outside the agent allow-list and denies calls to them", () => {
    const policy = engine({ tools: ["read_file", "mcp__context7__*"] });
    assert.equal(policy.isOffered(readTool), true);
    assert.equal(policy.isOffered(remote), true);
    assert.equal(policy.isOffered(shell), false);
    assert.equal(policy.decide(shell, { command: "ls" }).verdict, "deny");
  });

  it("does not offer a tool denied by name, but offers one denied only for some arguments", () => {
    const policy = engine({
      rules: [rule("deny", "mcp__context7__*"), rule("deny", "run_command(rm *)")],
    });
    assert.equal(policy.isOffered(remote), false);
    assert.equal(policy.isOffered(shell), true);
  });
});

const APPROVED = { isApproved: () => true };

describe("policy settings from config layers and code", () => {
  it("adds rules of every layer, so a deny in any layer stands, and takes mode from the most specific", () => {
    const config = LoadedConfig.fromTexts({
      user: "permissions:\n  mode: plan\n  deny: [mcp__context7__*]\n",
      project: "permissions:\n  mode: accept_edits\n  allow: [mcp__context7__*]\n",
    });
    const diagnostics: Diagnostic[] = [];
    // The user approved the workspace's widening permissions (see the next test for without).
    const settings = buildPolicySettings(
      config,
      { ask: ["run_command"] },
      WORKSPACE,
      (d) => diagnostics.push(d),
      APPROVED,
    );
    assert.deepEqual(diagnostics, []);
    assert.equal(settings.mode, "accept_edits");
    assert.deepEqual(
      settings.rules.map((r) => `${r.origin}:${r.verdict}:${r.pattern}`),
      ["user:deny:mcp__context7__*", "project:allow:mcp__context7__*", "code:ask:run_command"],
    );
    assert.equal(createPolicyEngine(settings).decide(remote, {}).verdict, "deny");
    const fromCode = buildPolicySettings(config, { mode: "bypass" }, WORKSPACE, () => {});
    assert.equal(fromCode.mode, "bypass");
  });

  it("applies only the narrowing part of a workspace's permissions until the user approves them", () => {
    const config = LoadedConfig.fromTexts({
      user: "permissions:\n  mode: plan\n  tools: [read_file, mcp__*]\n",
      project:
        "permissions:\n  mode: bypass\n  tools: ['*']\n  allow: [run_command]\n  deny: [mcp__context7__*]\n  ask: [read_file]\n",
    });
    const diagnostics: Diagnostic[] = [];
    const settings = buildPolicySettings(config, undefined, WORKSPACE, (d) => diagnostics.push(d));
    assert.equal(settings.mode, "plan", "a looser mode does not replace the user's");
    assert.deepEqual(settings.tools, ["read_file", "mcp__*"], "the user's allow-list stays");
    assert.deepEqual(settings.narrowTools, [["*"]]);
    assert.deepEqual(
      settings.rules.map((r) => `${r.origin}:${r.verdict}:${r.pattern}`),
      ["project:deny:mcp__context7__*", "project:ask:read_file"],
      "deny and ask rules count, the allow rule does not",
    );
    const policy = createPolicyEngine(settings);
    assert.equal(policy.decide(shell, { command: "rm -rf /" }).verdict, "deny");
    assert.equal(policy.isOffered(shell), false);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]!.code, "needs_consent");
    assert.match(diagnostics[0]!.message, /pseudoclaude trust approve setting:permissions/);

    const stricter = LoadedConfig.fromTexts({
      user: "permissions:\n  mode: accept_edits\n",
      project: "permissions:\n  mode: plan\n  tools: [read_file]\n",
    });
    const narrowed = buildPolicySettings(stricter, undefined, WORKSPACE, (d) =>
      diagnostics.push(d),
    );
    assert.equal(narrowed.mode, "plan", "a stricter mode needs no approval");
    assert.deepEqual(narrowed.tools, ["read_file"], "nor does a first allow-list");
    assert.equal(diagnostics.length, 1, "narrowing asks nothing");
  });

  it("fails closed on a misspelt key: the deny rules stand and the problem blocks, with a suggestion", () => {
    const config = LoadedConfig.fromTexts({
      project: "permissions:\n  alow: [run_command]\n  deny: ['run_command(rm *)']\n",
    });
    const diagnostics: Diagnostic[] = [];
    const settings = buildPolicySettings(config, undefined, WORKSPACE, (d) => diagnostics.push(d));
    assert.deepEqual(
      settings.rules.map((r) => `${r.verdict}:${r.pattern}`),
      ["deny:run_command(rm *)"],
    );
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]!.blocking, true);
    assert.equal(diagnostics[0]!.severity, "error");
    assert.equal(diagnostics[0]!.line, 2);
    assert.match(
      diagnostics[0]!.message,
      /permissions\.alow: unknown key \(did you mean `allow`\?\)/,
    );
  });

  it("reports a malformed rule at its line and column and keeps the other rules", () => {
    const config = LoadedConfig.fromTexts({
      project: "permissions:\n  deny:\n    - good_tool\n    - run_command(npm test\n",
    });
    const diagnostics: Diagnostic[] = [];
    const settings = buildPolicySettings(config, undefined, WORKSPACE, (d) => diagnostics.push(d));
    assert.deepEqual(
      settings.rules.map((r) => r.pattern),
      ["good_tool"],
    );
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]!.code, "invalid_rule");
    assert.equal(diagnostics[0]!.line, 4);
    assert.equal(diagnostics[0]!.column, 7);
  });

  it("reports an invalid mode with its position as blocking, and keeps that layer's deny rules", () => {
    const config = LoadedConfig.fromTexts({
      user: "permissions:\n  deny: [a]\n",
      project: "permissions:\n  mode: yolo\n  deny: [b]\n",
    });
    const diagnostics: Diagnostic[] = [];
    const settings = buildPolicySettings(config, undefined, WORKSPACE, (d) => diagnostics.push(d));
    assert.deepEqual(
      settings.rules.map((r) => r.pattern),
      ["a", "b"],
    );
    assert.equal(diagnostics[0]!.blocking, true);
    assert.equal(diagnostics[0]!.line, 2);
    assert.equal(diagnostics[0]!.column, 9);
    assert.match(diagnostics[0]!.message, /permissions\.mode/);
  });

  it("throws for a malformed rule written in code", () => {
    assert.throws(
      () =>
        buildPolicySettings(LoadedConfig.empty(), { allow: ["run_command("] }, WORKSPACE, () => {}),
      /does not end with "\)"/,
    );
  });
});

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import type { ToolDefinition } from "@pseudoclaude/core";
import { DefaultPolicyEngine } from "../src/policy/default-policy-engine.js";

const tool = (name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition => ({
  name,
  description: name,
  inputSchema: { type: "object" },
  safety: "side_effect",
  source: "test",
  ...extra,
});
const readFile = tool("read_file", {
  aliases: ["Read"],
  safety: "read_only",
  permissionKey: { argument: "path", match: "path" },
});
const writeFile = tool("write_file", {
  aliases: ["Write"],
  category: "edit",
  permissionKey: { argument: "path", match: "path" },
});

function engine(workspace: string, deny: string[]) {
  return new DefaultPolicyEngine({
    mode: "bypass",
    workspace,
    rules: deny.map((pattern) => ({ verdict: "deny" as const, pattern, origin: "user" })),
  });
}

describe("Claude Code's rule forms mean what they mean in Claude Code", () => {
  it("mcp__server alone names every tool of that server, and only its tools", () => {
    const policy = engine("/w", ["mcp__github"]);
    assert.equal(policy.decide(tool("mcp__github__create_issue"), {}).verdict, "deny");
    assert.equal(policy.isOffered(tool("mcp__github__create_issue")), false);
    assert.equal(policy.decide(tool("mcp__github_enterprise__x"), {}).verdict, "allow");
    assert.equal(policy.decide(tool("mcp__gitlab__create_issue"), {}).verdict, "allow");
  });

  it("Edit(...) names every tool that edits files, Write(...) only write_file", () => {
    const policy = engine("/w", ["Edit(secrets/**)"]);
    assert.equal(policy.decide(writeFile, { path: "secrets/a" }).verdict, "deny");
    assert.equal(policy.decide(writeFile, { path: "src/a" }).verdict, "allow");
    assert.equal(policy.decide(readFile, { path: "secrets/a" }).verdict, "allow");
  });

  it("~/ is the home directory and // the file system's root; / stays the workspace's", async () => {
    const workspace = await mkdtemp(path.join(os.tmpdir(), "pc-rule-forms-"));
    try {
      const home = path.join(os.homedir(), ".ssh", "id_ed25519");
      const policy = engine(workspace, [
        "Read(~/.ssh/**)",
        "Read(//etc/shadow)",
        "Read(/local/**)",
      ]);
      assert.equal(policy.decide(readFile, { path: home }).verdict, "deny");
      assert.equal(policy.decide(readFile, { path: "/etc/shadow" }).verdict, "deny");
      assert.equal(policy.decide(readFile, { path: "local/x" }).verdict, "deny", "anchored");
      assert.equal(policy.decide(readFile, { path: "notes.md" }).verdict, "allow");
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});

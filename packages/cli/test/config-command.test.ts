import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { fixture, parseJson, runCli, withWorkspace } from "./support/cli.js";

interface ConfigJson {
  config: Record<string, unknown>;
  values: Array<{
    path: string;
    value: unknown;
    layer: string;
    file: string;
    line?: number;
    column?: number;
  }>;
  ignored: Array<{ path: string; reason: string }>;
  diagnostics: unknown[];
}

const USER = `provider:
  name: anthropic
  model: claude-user
permissions:
  allow: ["read_file"]
mcp_servers:
  docs:
    command: user-docs
    env: { TOKEN: "literal-secret", FROM_ENV: "\${DOCS_TOKEN}" }
skills:
  trusted: [mine]
`;

const PROJECT = `provider:
  model: claude-project
permissions:
  allow: ["run_command(npm test*)"]
  mode: plan
mcp_servers:
  docs:
    type: http
    url: https://docs.example.com/mcp
    headers: { Authorization: "Bearer abc123" }
skills:
  trusted: [theirs]
`;

describe("pseudoclaude config", () => {
  it("prints the merged configuration with the file, line and column of every value", async () => {
    await withWorkspace(async (workspace) => {
      const userFile = await workspace.writeConfig("user", USER);
      const projectFile = await workspace.writeConfig("project", PROJECT);
      const mcpJson = path.join(workspace.root, ".mcp.json");
      await writeFile(
        mcpJson,
        '{\n  "mcpServers": {\n    "files": { "command": "npx", "args": ["-y", "fs"] }\n  }\n}\n',
      );
      const result = await runCli(workspace, ["config", "--json"]);
      assert.equal(result.code, 0, result.stderr);
      const json = parseJson<ConfigJson>(result);
      const at = (valuePath: string) => json.values.find((value) => value.path === valuePath);
      assert.deepEqual(json.config.permissions, {
        allow: ["read_file", "run_command(npm test*)"],
        mode: "plan",
      });
      assert.deepEqual(
        [at("permissions.allow[0]")?.file, at("permissions.allow[0]")?.line],
        [userFile, 5],
      );
      assert.deepEqual(
        [
          at("permissions.allow[1]")?.layer,
          at("permissions.allow[1]")?.file,
          at("permissions.allow[1]")?.line,
        ],
        ["project", projectFile, 4],
      );
      assert.equal(at("permissions.allow[1]")?.column, 11);
      // Key by key: the project's model over the user's, the user's name kept.
      assert.deepEqual(json.config.provider, { name: "anthropic", model: "claude-project" });
      assert.equal(at("provider.name")?.file, userFile);
      assert.equal(at("provider.model")?.file, projectFile);
      // A server entry is replaced whole by the more specific layer; .mcp.json comes in between.
      const servers = json.config.mcp_servers as Record<string, Record<string, unknown>>;
      assert.deepEqual(Object.keys(servers.docs ?? {}).sort(), ["headers", "type", "url"]);
      assert.equal(
        at("mcp_servers.docs.command"),
        undefined,
        "nothing of the user's entry is left",
      );
      assert.deepEqual(servers.files, { command: "npx", args: ["-y", "fs"] });
      assert.deepEqual(
        [at("mcp_servers.files.args[1]")?.file, at("mcp_servers.files.args[1]")?.line],
        [mcpJson, 3],
      );
      // Only the user's own config may trust.
      assert.deepEqual(json.config.skills, { trusted: ["mine"] });
      assert.deepEqual(
        json.ignored.map((value) => [value.path, value.reason]),
        [["skills.trusted[0]", "only the user's own config may set this"]],
      );
    });
  });

  it("redacts secrets and shows ${VAR} templates as written", async () => {
    await withWorkspace(async (workspace) => {
      await workspace.writeConfig("user", USER);
      await workspace.writeConfig(
        "project",
        'mcp_servers:\n  local:\n    command: x\n    env: { API_KEY: plain-key-value, REF: "${MY_KEY:-none}" }\n',
      );
      const result = await runCli(workspace, ["config", "--json"]);
      const json = parseJson<ConfigJson>(result);
      assert.ok(!result.stdout.includes("literal-secret"));
      assert.ok(!result.stdout.includes("plain-key-value"));
      const servers = json.config.mcp_servers as Record<string, { env?: Record<string, string> }>;
      assert.deepEqual(servers.local?.env, { API_KEY: "***", REF: "${MY_KEY:-none}" });
      assert.deepEqual(servers.docs?.env, { TOKEN: "***", FROM_ENV: "${DOCS_TOKEN}" });
      const text = await runCli(workspace, ["config"]);
      assert.ok(!text.stdout.includes("literal-secret"));
      assert.match(
        text.stdout,
        /^mcp_servers\.local\.env\.API_KEY = "\*\*\*" {4}project \.PseudoClaude\/config\.yaml:4$/m,
      );
      assert.match(
        text.stdout,
        /^permissions\.allow\[0\] = "read_file" {4}user .*config\.yaml:5$/m,
      );
    });
  });

  it("lets a project that names another provider stand alone", async () => {
    await withWorkspace(async (workspace) => {
      await workspace.writeConfig("user", USER);
      await workspace.writeConfig("project", "provider:\n  name: openai\n");
      const json = parseJson<ConfigJson>(await runCli(workspace, ["config", "--json"]));
      assert.deepEqual(json.config.provider, { name: "openai" });
    });
  });

  it("merges a plugin's own section as the plugin declares it", async () => {
    await withWorkspace(async (workspace) => {
      await workspace.writeConfig("user", "team:\n  members: [ana]\n  lead: ana\n  size: 1\n");
      await workspace.writeConfig("project", "team:\n  members: [bo]\n  lead: bo\n  size: 2\n");
      const plugin = fixture("section-plugin.mjs");
      const json = parseJson<ConfigJson>(
        await runCli(workspace, ["config", "--json", "--plugin", plugin]),
      );
      assert.deepEqual(json.config.team, { members: ["ana", "bo"], lead: "ana", size: 2 });
      assert.deepEqual(
        json.ignored.map((value) => [value.path, value.reason]),
        [["team.lead", "only the user's own config may set this"]],
      );
    });
  });

  it("exits 2 and lists a misspelt permissions key at its line, with a suggestion", async () => {
    await withWorkspace(async (workspace) => {
      const file = await workspace.writeConfig(
        "project",
        "permissions:\n  alow: [run_command]\n  deny: ['run_command(rm *)']\n",
      );
      const result = await runCli(workspace, ["config", "--json"]);
      assert.equal(result.code, 2, result.stderr);
      const diagnostics = parseJson<{
        diagnostics: Array<{
          code: string;
          severity: string;
          file: string;
          line: number;
          message: string;
        }>;
      }>(result).diagnostics;
      const typo = diagnostics.find((diagnostic) => diagnostic.code === "config_unknown_key");
      assert.equal(typo?.severity, "error");
      assert.equal(typo?.file, file);
      assert.equal(typo?.line, 2);
      assert.match(
        typo?.message ?? "",
        /permissions\.alow: unknown key \(did you mean `allow`\?\)/,
      );
      const text = await runCli(workspace, ["config"]);
      assert.equal(text.code, 2);
      assert.match(text.stderr, /config\.yaml:2: permissions\.alow: unknown key/);
    });
  });

  it("lists the files read and those looked for and absent", async () => {
    await withWorkspace(async (workspace) => {
      const userFile = await workspace.writeConfig("user", USER);
      const result = await runCli(workspace, ["config", "path", "--json"]);
      assert.equal(result.code, 0, result.stderr);
      const json = parseJson<{
        files: Array<{ kind: string; layer: string; file: string; exists: boolean }>;
      }>(result);
      assert.deepEqual(
        json.files.map((file) => [file.kind, file.layer, file.exists]),
        [
          ["config", "user", true],
          ["config", "project", false],
          ["mcp_json", "project", false],
          ["approvals", "user", false],
        ],
      );
      assert.equal(json.files[0]?.file, userFile);
      assert.equal(json.files[1]?.file, path.join(workspace.root, ".PseudoClaude", "config.yaml"));
      const text = await runCli(workspace, ["config", "path"]);
      assert.match(text.stdout, /^read {4}user {5}config {5}.*\.PseudoClaude\/config\.yaml$/m);
      assert.match(text.stdout, /^absent {2}project {2}mcp_json {3}.*\.mcp\.json$/m);
      const wrong = await runCli(workspace, ["config", "paths"]);
      assert.equal(wrong.code, 2);
    });
  });
});

// Claude Code's `env` and `model` through the real CLI: the variables reach every process a
// tool starts (a shell command and a real stdio MCP server), a repository's only after
// consent, never this process's provider key; the model becomes the Anthropic provider's
// default, Claude Code's aliases resolved, in Claude Code's precedence and below our own.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { markedProcesses, markerEnv, newMarker } from "@pseudoclaude/testing/system";
import { EVERYTHING } from "#mcp-test/reference-server-paths.js";
import { runWithPrompt } from "./fixtures/instructions/prompt-run.js";
import { startWireServer, type WireServer } from "./fixtures/providers/wire-server.js";
import { writeClaudeSettings as settings } from "./support/claude-settings.js";
import { parseJson, runCli } from "./support/cli.js";

describe("Claude Code's env, through the CLI", () => {
  let workspace: TempWorkspace;
  beforeEach(async () => {
    workspace = await createTempWorkspace("pc-claude-env-");
  });
  afterEach(() => workspace.cleanup());

  it("reaches a stdio MCP server: the user's at once, a repository's after trust approve, the server's own env winning", async () => {
    const marker = newMarker();
    const env = { SHARED: "from-server", ...markerEnv(marker) };
    await workspace.writeConfig(
      "user",
      [
        "mcp_servers:",
        "  everything:",
        "    type: stdio",
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: ${JSON.stringify([EVERYTHING, "stdio"])}`,
        "    env:",
        ...Object.entries(env).map(([key, value]) => `      ${key}: ${JSON.stringify(value)}`),
        "",
      ].join("\n"),
    );
    await settings(workspace, "user", {
      env: { FROM_USER: "user-value", SHARED: "from-settings", ANTHROPIC_API_KEY: "tool-only" },
    });
    await settings(workspace, "project", { env: { FROM_REPO: "repo-value" } });
    const getEnv = async () => {
      const run = await runCli(workspace, [
        "call",
        "mcp__everything__get-env",
        "{}",
        "--json",
        "--yes",
      ]);
      assert.equal(run.code, 0, run.stderr);
      const text = parseJson<{ content: Array<{ text?: string }> }>(run).content[0]?.text ?? "";
      return { env: JSON.parse(text) as Record<string, string> };
    };
    const before = await getEnv();
    assert.equal(before.env.FROM_USER, "user-value");
    assert.equal(before.env.SHARED, "from-server", "a server's own env wins over settings");
    assert.equal(before.env.FROM_REPO, undefined, "the repository's variable waits for consent");
    const listed = await runCli(workspace, ["trust"]);
    assert.match(listed.stdout, /needs-approval +setting:env +env FROM_REPO/);
    assert.equal((await runCli(workspace, ["trust", "approve"])).code, 0);
    const after = await getEnv();
    assert.equal(after.env.FROM_REPO, "repo-value");
    assert.deepEqual(markedProcesses(marker), [], "the CLI closed the server it started");
  });

  it("reaches a hook command", async () => {
    await settings(workspace, "user", {
      env: { FROM_USER: "user-value" },
      hooks: {
        PreToolUse: [
          {
            hooks: [
              { type: "command", command: 'echo "[$FROM_USER]" > "$CLAUDE_PROJECT_DIR/hook.txt"' },
            ],
          },
        ],
      },
    });
    const run = await runCli(workspace, ["call", "list_dir", '{"path":"."}']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(await readFile(path.join(workspace.root, "hook.txt"), "utf8"), "[user-value]\n");
  });

  it("is not this process's environment: a variable named like a provider key reaches only tools", async () => {
    await settings(workspace, "user", { env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:9/" } });
    const run = await runCli(workspace, [
      "call",
      "run_command",
      '{"command":"echo [$ANTHROPIC_BASE_URL]"}',
      "--yes",
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /\[http:\/\/127\.0\.0\.1:9\/\]/);
    const config = await runCli(workspace, ["config", "--json"]);
    assert.equal(config.code, 0, config.stderr);
    assert.match(config.stdout, /"ANTHROPIC_BASE_URL"/, "config shows where the variable is set");
  });
});

describe("Claude Code's model, through the CLI", () => {
  let server: WireServer;
  let workspace: TempWorkspace;
  before(async () => {
    server = await startWireServer();
  });
  beforeEach(async () => {
    workspace = await createTempWorkspace("pc-claude-model-");
  });
  afterEach(async () => {
    server.reset();
    await workspace.cleanup();
  });
  after(() => server.close());

  const modelOfRun = async (args: readonly string[] = []) => {
    const { run } = await runWithPrompt(workspace, server, args);
    assert.equal(run.code, 0, run.stderr);
    const model = server.requests.at(-1)?.body?.model;
    server.reset();
    return model;
  };

  it("an alias names its family's model; local over shared over the user's, --model over all", async () => {
    // The settings' variables are for tools: the provider still reaches the server it was given.
    await settings(workspace, "user", {
      model: "opus",
      env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:9/" },
    });
    assert.equal(await modelOfRun(), "claude-opus-5-5");
    await settings(workspace, "project", { model: "haiku" });
    assert.equal(await modelOfRun(), "claude-haiku-5-5", "the shared project file over the user's");
    await settings(workspace, "local", { model: "claude-sonnet-4-5-20250929" });
    assert.equal(await modelOfRun(), "claude-sonnet-4-5-20250929", "an id passes as written");
    assert.equal(await modelOfRun(["--model", "sonnet"]), "claude-sonnet-5-5");
  });

  it("our own provider.model wins over it, and config shows where each came from", async () => {
    await settings(workspace, "user", { model: "opus" });
    await workspace.writeConfig("user", "provider:\n  model: claude-haiku-4-5\n");
    assert.equal(await modelOfRun(), "claude-haiku-4-5");
    const config = await runCli(workspace, ["config"]);
    assert.equal(config.code, 0, config.stderr);
    assert.match(
      config.stdout,
      /provider\.claude_model = "opus" +user .*\.claude\/settings\.json:2/,
    );
    assert.match(config.stdout, /provider\.model = "claude-haiku-4-5" +user .*config\.yaml:2/);
  });
});

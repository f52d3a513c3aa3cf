import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { suggestCommand, suggestFlag, suggestTool } from "../src/suggestions.js";
import { parseJson, runCli, TOOLS_PLUGIN, withWorkspace } from "./support/cli.js";

describe("suggestions for mistyped names", () => {
  it("finds a command within two edits, and nothing for a word that is far from all", () => {
    assert.equal(suggestCommand("chta", ["tools", "chat", "run"]), "chat");
    assert.equal(suggestCommand("tool", ["tools", "chat", "run"]), "tools");
    assert.equal(suggestCommand("frobnicate", ["tools", "chat", "run"]), undefined);
  });

  it("finds a flag with or without its dashes and value", () => {
    const flags = ["max-turns", "model", "mode"];
    assert.equal(suggestFlag("--max-turn", flags), "--max-turns");
    assert.equal(suggestFlag("--maxturns", flags), "--max-turns");
    assert.equal(suggestFlag("--modle=x", flags), "--model");
    assert.equal(suggestFlag("--", flags), undefined);
  });

  it("finds a tool by its whole name or, for MCP tools, by the server's own name", () => {
    const tools = ["read_file", "mcp__beh__echo", "mcp__a__ping", "mcp__b__ping"];
    assert.equal(suggestTool("reed_file", tools), "read_file");
    assert.equal(suggestTool("echo", tools), "mcp__beh__echo");
    assert.equal(suggestTool("ecoh", tools), "mcp__beh__echo");
    // Two servers have a `ping`: guessing one would be a coin toss.
    assert.equal(suggestTool("ping", tools), undefined);
    assert.equal(suggestTool("read_file", tools), undefined);
  });
});

describe("suggestions in --json errors", () => {
  it("add a suggestion to the error and keep its code and exit status", async () => {
    await withWorkspace(async (workspace) => {
      for (const [args, code, suggestion] of [
        [["chta"], "unknown_command", "chat"],
        [["run", "hi", "--modle", "m"], "unknown_flag", "--model"],
        [["call", "echo", "--mod", "plan"], "unknown_flag", "--mode"],
        [["tools", "--stric"], "unknown_flag", "--strict"],
      ] as const) {
        const result = await runCli(workspace, [...args, "--json"]);
        assert.equal(result.code, 2, result.stderr);
        const json = parseJson<{ error: Record<string, string> }>(result);
        assert.deepEqual(Object.keys(json), ["error"]);
        assert.equal(json.error.code, code);
        assert.equal(json.error.suggestion, suggestion);
      }
    });
  });

  it("add the closest tool to call's result for an unknown tool, which still exits 1", async () => {
    await withWorkspace(async (workspace) => {
      const result = await runCli(workspace, ["call", "ecoh", "--json", "--plugin", TOOLS_PLUGIN]);
      assert.equal(result.code, 1, result.stderr);
      const json = parseJson<{ error: { code: string }; suggestion?: string }>(result);
      assert.equal(json.error.code, "unknown_tool");
      assert.equal(json.suggestion, "echo");
      const plain = await runCli(workspace, ["call", "ecoh", "--plugin", TOOLS_PLUGIN]);
      assert.match(plain.stderr, /Did you mean "echo"\? Run "pseudoclaude tools" for the list\./);
    });
  });
});

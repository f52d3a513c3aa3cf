import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fixture, parseJson, runCli, TOOLS_PLUGIN, withWorkspace } from "./support/cli.js";

interface ToolsJson {
  tools: Array<Record<string, unknown> & { name: string; source: string; offered: boolean }>;
  sources: Array<Record<string, unknown>>;
  diagnostics: Array<Record<string, unknown> & { severity: string }>;
}

/** The fixture plugin's tools, without those of the default plugins. */
function fixtureTools(json: ToolsJson): ToolsJson["tools"] {
  return json.tools.filter((tool) => tool.source === "fixture");
}

describe("pseudoclaude tools", () => {
  it("lists a plugin's tools, its source and no diagnostics as one JSON document", async () => {
    await withWorkspace(async (workspace) => {
      const run = await runCli(workspace, ["tools", "--json", "--plugin", TOOLS_PLUGIN]);
      assert.equal(run.code, 0, run.stderr);
      const json = parseJson<ToolsJson>(run);
      assert.deepEqual(Object.keys(json), [
        "tools",
        "sources",
        "totals",
        "diagnostics",
        "tool_search",
      ]);
      // The default plugins' tools (the built-ins) are listed too; these tests look at the fixture's.
      assert.deepEqual(
        fixtureTools(json).map((tool) => tool.name),
        ["echo", "fail", "slow", "write_note"],
      );
      const echo = json.tools.find((tool) => tool.name === "echo");
      assert.deepEqual(echo, {
        name: "echo",
        source: "fixture",
        safety: "read_only",
        description: "Echo the text back.",
        input_schema: {
          type: "object",
          properties: { text: { type: "string" } },
          required: ["text"],
        },
        audience: ["model", "app"],
        offered: true,
        state: "loaded",
      });
      assert.equal(json.tools.find((tool) => tool.name === "write_note")?.safety, "side_effect");
      assert.deepEqual(
        json.sources.filter((source) => source.id === "fixture"),
        [{ id: "fixture", state: "ready", stats: { tools: 4 } }],
      );
      assert.deepEqual(json.diagnostics, []);
      assert.equal(run.stderr, "");
    });
  });

  it("marks side-effect tools as not offered when the project config selects plan mode", async () => {
    await withWorkspace(async (workspace) => {
      await workspace.writeConfig("project", "permissions:\n  mode: plan\n");
      const json = parseJson<ToolsJson>(
        await runCli(workspace, ["tools", "--json", "--plugin", TOOLS_PLUGIN]),
      );
      const offered = Object.fromEntries(
        fixtureTools(json).map((tool) => [tool.name, tool.offered]),
      );
      assert.deepEqual(offered, { echo: true, fail: true, slow: true, write_note: false });
      // A tool the policy does not offer has no state.
      assert.equal(json.tools.find((tool) => tool.name === "write_note")?.state, null);
    });
  });

  it("still lists the tools and applies the user layer when the project YAML is broken", async () => {
    await withWorkspace(async (workspace) => {
      await workspace.writeConfig("user", "permissions:\n  deny: [fail]\n");
      const projectFile = await workspace.writeConfig(
        "project",
        "permissions:\n  deny: [echo\n  mode: plan\n",
      );
      const run = await runCli(workspace, ["tools", "--json", "--plugin", TOOLS_PLUGIN]);
      assert.equal(run.code, 0, run.stderr);
      const json = parseJson<ToolsJson>(run);
      assert.equal(fixtureTools(json).length, 4);
      // The user layer still counts: its deny rule hides "fail" from the model.
      assert.equal(json.tools.find((tool) => tool.name === "fail")?.offered, false);
      assert.equal(json.tools.find((tool) => tool.name === "echo")?.offered, true);
      const broken = json.diagnostics.find((diagnostic) => diagnostic.code === "config_yaml_error");
      assert.ok(broken, JSON.stringify(json.diagnostics));
      assert.equal(broken.stage, "config");
      assert.equal(broken.severity, "error");
      assert.equal(broken.layer, "project");
      assert.equal(broken.file, projectFile);
      assert.equal(typeof broken.line, "number");
      assert.equal(typeof broken.column, "number");
    });
  });

  it("prints a table on stdout and each diagnostic with file:line:column on stderr", async () => {
    await withWorkspace(async (workspace) => {
      const projectFile = await workspace.writeConfig("project", "permissions: [\n");
      const run = await runCli(workspace, ["tools", "--plugin", TOOLS_PLUGIN]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^NAME\s+SOURCE\s+SAFETY\s+OFFERED\s+STATE\s+DESCRIPTION$/m);
      assert.match(
        run.stdout,
        /^write_note\s+fixture\s+side_effect\s+yes\s+loaded\s+Write a note/m,
      );
      // A handful of local tools defer nothing.
      assert.match(
        run.stdout,
        /^tool search: none — no deferrable tools; ~[\d,]+ tokens of definitions sent$/m,
      );
      assert.match(run.stdout, /^ {2}fixture {2}ready {2}tools=4$/m);
      assert.match(run.stdout, /Diagnostics: 1 \(1 error\)/);
      const escaped = projectFile.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      assert.match(run.stderr, new RegExp(`^error config \\[${escaped}:\\d+:\\d+ `, "m"));
    });
  });

  it("exits 2 with --strict when a diagnostic is an error, and 0 when there is none", async () => {
    await withWorkspace(async (workspace) => {
      const clean = await runCli(workspace, ["tools", "--strict", "--plugin", TOOLS_PLUGIN]);
      assert.equal(clean.code, 0, clean.stderr);
      await workspace.writeConfig("project", "permissions: [\n");
      const strict = await runCli(workspace, ["tools", "--strict", "--json"]);
      assert.equal(strict.code, 2);
      assert.equal(parseJson<ToolsJson>(strict).diagnostics[0]?.severity, "error");
    });
  });

  it("loads a plugin from a module's named `plugin` export", async () => {
    await withWorkspace(async (workspace) => {
      const run = await runCli(workspace, [
        "tools",
        "--json",
        "--plugin",
        fixture("child-process-plugin.mjs"),
      ]);
      assert.equal(run.code, 0, run.stderr);
      assert.ok(
        parseJson<ToolsJson>(run).sources.some((source) => source.id === "fixture-child"),
        run.stdout,
      );
    });
  });

  it("treats a --plugin module without a valid plugin as a configuration error", async () => {
    await withWorkspace(async (workspace) => {
      const broken = await runCli(workspace, ["tools", "--plugin", fixture("broken-plugin.mjs")]);
      assert.equal(broken.code, 2);
      assert.match(broken.stderr, /Cannot load --plugin .*broken-plugin\.mjs/);
      const missing = await runCli(workspace, ["tools", "--json", "--plugin", "nope.mjs"]);
      assert.equal(missing.code, 2);
      assert.equal(
        parseJson<{ error: { code: string } }>(missing).error.code,
        "plugin_load_failed",
      );
    });
  });
});

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { createAgent, LoadedConfig } from "@pseudoclaude/core";
import { createTempWorkspace } from "@pseudoclaude/testing";
import { BUILTIN_SOURCE_ID, BUILTIN_TOOL_ALIASES, builtinTools } from "../src/index.js";
import { show, textOf, withTools } from "./support/agent.js";

const READ_ONLY = ["glob", "grep", "list_dir", "read_file"];
const SIDE_EFFECT = ["edit_file", "run_command", "write_file"];

describe("the builtin-tools plugin", () => {
  it("registers seven tools in source builtin with honest safety, categories and permission keys", async () => {
    await withTools({}, async ({ agent }) => {
      const definitions = [...agent.registry.definitions()].sort((a, b) =>
        a.name.localeCompare(b.name),
      );
      assert.deepEqual(
        definitions.map((definition) => [definition.name, definition.safety]),
        [
          ...READ_ONLY.map((name) => [name, "read_only"]),
          ...SIDE_EFFECT.map((name) => [name, "side_effect"]),
        ].sort((a, b) => a[0]!.localeCompare(b[0]!)),
      );
      const byName = Object.fromEntries(
        definitions.map((definition) => [definition.name, definition]),
      );
      assert.ok(definitions.every((definition) => definition.source === BUILTIN_SOURCE_ID));
      assert.equal(byName.write_file?.category, "edit");
      assert.equal(byName.edit_file?.category, "edit");
      assert.equal(byName.run_command?.category, "command");
      assert.deepEqual(byName.run_command?.permissionKey, {
        argument: "command",
        match: "command",
      });
      for (const name of ["read_file", "list_dir", "glob", "grep", "write_file", "edit_file"]) {
        assert.deepEqual(byName[name]?.permissionKey, { argument: "path", match: "path" }, name);
      }
      assert.deepEqual(agent.sources(), [
        { id: "builtin", status: { state: "ready", stats: { tools: 7 } } },
      ]);
    });
  });

  it("gives every tool a JSON Schema generated from its zod schema", async () => {
    await withTools({}, async ({ agent }) => {
      const schema = agent.registry.get("edit_file")!.definition.inputSchema;
      assert.equal(schema.type, "object");
      assert.equal(schema.additionalProperties, false);
      assert.deepEqual(schema.required, ["path", "old_string", "new_string"]);
      assert.deepEqual(Object.keys(schema.properties as object), [
        "path",
        "old_string",
        "new_string",
        "replace_all",
      ]);
      assert.equal("$schema" in schema, false);
      const grep = agent.registry.get("grep")!.definition.inputSchema as {
        properties: { output_mode: { enum: string[] } };
      };
      assert.deepEqual(grep.properties.output_mode.enum, [
        "content",
        "files_with_matches",
        "count",
      ]);
    });
  });

  it("validates arguments before anything runs", async () => {
    await withTools({}, async ({ call, workspace }) => {
      const missing = await call("write_file", { path: "a.txt" });
      assert.equal(missing.error?.code, "invalid_arguments", show(missing));
      assert.match(textOf(missing), /content/);
      assert.equal(existsSync(path.join(workspace.root, "a.txt")), false);
      const extra = await call("run_command", { command: "touch ran", shell: "bash" });
      assert.equal(extra.error?.code, "invalid_arguments", show(extra));
      assert.equal(existsSync(path.join(workspace.root, "ran")), false);
      const same = await call("edit_file", { path: "a.txt", old_string: "x", new_string: "x" });
      assert.equal(same.error?.code, "invalid_arguments", show(same));
      const regex = await call("grep", { pattern: "(unclosed" });
      assert.equal(regex.error?.code, "invalid_arguments", show(regex));
      assert.match(textOf(regex), /regular expression/);
      const negative = await call("read_file", { path: "a.txt", offset: 0 });
      assert.equal(negative.error?.code, "invalid_arguments", show(negative));
    });
  });

  it("offers only the read-only tools in plan mode and denies the others", async () => {
    await withTools({ agent: { policy: { mode: "plan" } } }, async ({ agent, call, workspace }) => {
      assert.deepEqual(
        agent
          .offeredTools()
          .map((tool) => tool.name)
          .sort(),
        READ_ONLY,
      );
      const written = await call("write_file", { path: "a.txt", content: "x" });
      assert.equal(written.error?.code, "denied", show(written));
      assert.equal(existsSync(path.join(workspace.root, "a.txt")), false);
      const command = await call("run_command", { command: "touch ran" });
      assert.equal(command.error?.code, "denied");
      assert.equal(existsSync(path.join(workspace.root, "ran")), false);
    });
  });

  it("declares Claude Code's name of each tool as an alias, so rules in those names apply", async () => {
    await withTools({}, async ({ agent }) => {
      const aliases = Object.fromEntries(
        [...agent.registry.definitions()].map((definition) => [
          definition.name,
          definition.aliases,
        ]),
      );
      assert.deepEqual(aliases, BUILTIN_TOOL_ALIASES);
    });
    const workspace = await createTempWorkspace("pseudoclaude-builtin-alias-");
    const agent = await createAgent({
      workspace: workspace.root,
      plugins: [builtinTools()],
      config: false,
      policy: { allow: ["Bash(echo ok*)", "Write(src/**)"], deny: ["Edit(locked/**)"] },
    });
    try {
      const verdict = async (name: string, args: Record<string, unknown>) =>
        (await agent.callTool(name, args)).decision.verdict;
      assert.equal(await verdict("run_command", { command: "echo ok" }), "allow");
      assert.equal(await verdict("run_command", { command: "touch no" }), "ask");
      assert.equal(await verdict("write_file", { path: "src/a.ts", content: "" }), "allow");
      assert.equal(await verdict("write_file", { path: "b.ts", content: "" }), "ask");
      assert.equal(
        await verdict("edit_file", { path: "locked/a.ts", old_string: "x", new_string: "y" }),
        "deny",
      );
      // As in Claude Code, an Edit rule names every tool that edits files, Write included.
      assert.equal(await verdict("write_file", { path: "locked/a.ts", content: "" }), "deny");
      assert.equal(existsSync(path.join(workspace.root, "no")), false);
    } finally {
      await agent.close();
      await workspace.cleanup();
    }
  });

  it("lets policy rules match a command prefix and gitignore-style path globs", async () => {
    const workspace = await createTempWorkspace("pseudoclaude-builtin-policy-");
    const agent = await createAgent({
      workspace: workspace.root,
      plugins: [builtinTools()],
      config: false,
      policy: { allow: ["run_command(echo ok*)", "write_file(src/**)", "edit_file(*.md)"] },
    });
    try {
      // Without an approver, "ask" ends as a denied call: nothing runs.
      const decide = async (name: string, args: Record<string, unknown>) => {
        const outcome = await agent.callTool(name, args);
        if (outcome.decision.verdict === "ask") assert.equal(outcome.result.error?.code, "denied");
        return outcome.decision.verdict;
      };
      assert.equal(await decide("run_command", { command: "echo ok fine" }), "allow");
      assert.equal(await decide("run_command", { command: "echo ok && touch pwned" }), "ask");
      assert.equal(existsSync(path.join(workspace.root, "pwned")), false);
      assert.equal(await decide("run_command", { command: "echo ok $(touch pwned)" }), "ask");
      assert.equal(await decide("write_file", { path: "src/deep/a.ts", content: "" }), "allow");
      assert.equal(await decide("write_file", { path: "lib/a.ts", content: "" }), "ask");
      assert.equal(existsSync(path.join(workspace.root, "lib/a.ts")), false);
      assert.equal(await decide("write_file", { path: "../src/a.ts", content: "" }), "ask");
      await workspace.write("docs/guide.md", "old\n");
      assert.equal(
        await decide("edit_file", { path: "docs/guide.md", old_string: "old", new_string: "new" }),
        "allow",
      );
    } finally {
      await agent.close();
      await workspace.cleanup();
    }
  });

  it("auto-allows file edits but not commands in accept_edits mode", async () => {
    await withTools({ agent: { policy: { mode: "accept_edits" } } }, async ({ agent }) => {
      assert.equal(
        (await agent.callTool("write_file", { path: "a.txt", content: "x" })).result.ok,
        true,
      );
      const command = await agent.callTool("run_command", { command: "true" });
      assert.equal(command.decision.verdict, "ask");
      assert.equal(command.result.error?.code, "denied");
    });
  });

  it("reports bad config keys with their position and, told to diagnose, starts with the good ones", async () => {
    const workspace = await createTempWorkspace("pseudoclaude-builtin-config-");
    const texts = {
      project:
        "builtin_tools:\n  max_output_chars: 5\n  colour: blue\n  command_timeout_ms: 1234\n",
    };
    // The section can restrict the tools, so by default a mistake in it stops the agent.
    await assert.rejects(
      createAgent({
        workspace: workspace.root,
        plugins: [builtinTools()],
        config: LoadedConfig.fromTexts(texts),
      }),
      (error: Error & { code?: string }) =>
        error.code === "config_invalid" &&
        /<project>:3:3 .*builtin_tools\.colour: unknown key/.test(error.message),
    );
    const agent = await createAgent({
      workspace: workspace.root,
      plugins: [builtinTools()],
      config: { loaded: LoadedConfig.fromTexts(texts), onError: "diagnose" },
    });
    try {
      const diagnostics = agent
        .diagnostics()
        .filter((diagnostic) => diagnostic.source === "builtin-tools");
      assert.equal(diagnostics.length, 2, JSON.stringify(diagnostics));
      const invalid = diagnostics.find((diagnostic) => diagnostic.code === "config_invalid");
      assert.equal(invalid?.line, 2);
      assert.match(invalid?.message ?? "", /builtin_tools\.max_output_chars/);
      const unknown = diagnostics.find((diagnostic) => diagnostic.code === "config_unknown_key");
      assert.equal(unknown?.line, 3);
      assert.equal(agent.registry.get("run_command")?.definition.timeoutMs, 1234);
    } finally {
      await agent.close();
      await workspace.cleanup();
    }
  });
});

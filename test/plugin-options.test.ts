// Options passed in code that a plugin does not know (JavaScript, or options built at run
// time) make createAgent throw with the option as written and a suggestion, for each plugin
// that takes options; known options still work.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError, createAgent, type Plugin } from "@pseudoclaude/core";
import { builtinTools } from "@pseudoclaude/plugin-builtin-tools";
import { mcp } from "@pseudoclaude/plugin-mcp";
import { skills } from "@pseudoclaude/plugin-skills";

/** Options as JavaScript or JSON would pass them: the compiler cannot see the keys. */
function untyped<T>(options: Record<string, unknown>): T {
  return options as T;
}

async function thrown(plugin: Plugin): Promise<ConfigError> {
  try {
    const agent = await createAgent({ config: false, plugins: [plugin] });
    await agent.close();
  } catch (error) {
    assert.ok(ConfigError.is(error), String(error));
    return error as ConfigError;
  }
  assert.fail("createAgent did not throw");
}

describe("plugin options from code", () => {
  it("throws for an unknown option of builtinTools, skills and mcp, suggesting the one meant", async () => {
    const cases: Array<[Plugin, RegExp]> = [
      [
        builtinTools(untyped({ extraRots: ["../shared"] })),
        /builtinTools\(\): unknown option "extraRots" \(did you mean `extraRoots`\?\)/,
      ],
      [
        skills(untyped({ wach: false })),
        /skills\(\): unknown option "wach" \(did you mean `watch`\?\)/,
      ],
      [mcp(untyped({ sever: {} })), /mcp\(\): unknown option "sever" \(did you mean `servers`\?\)/],
    ];
    for (const [plugin, message] of cases) {
      const error = await thrown(plugin);
      assert.equal(error.code, "config_invalid");
      assert.match(error.message, message);
    }
  });

  it("starts with known options", async () => {
    const agent = await createAgent({
      config: false,
      plugins: [
        builtinTools({ maxOutputChars: 10_000 }),
        skills({ watch: false }),
        mcp({ mcpJson: false }),
      ],
    });
    try {
      assert.ok(agent.registry.get("read_file"));
      assert.deepEqual(
        agent.diagnostics().filter((diagnostic) => diagnostic.blocking),
        [],
      );
    } finally {
      await agent.close();
    }
  });
});

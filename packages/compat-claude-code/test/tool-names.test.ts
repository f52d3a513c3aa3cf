// Claude Code's tool names come from the aliases each built-in tool declares: the map both
// ways, older names included, and allowed-tools entries mapped through it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BUILTIN_TOOL_ALIASES } from "@pseudoclaude/plugin-builtin-tools/tool-names";
import { CLAUDE_CODE_TOOL_NAMES, FROM_CLAUDE_CODE_NAMES, mapAllowedTool } from "../src/index.js";

describe("Claude Code's tool names", () => {
  it("names each built-in tool by the first alias it declares", () => {
    assert.deepEqual(
      Object.keys(CLAUDE_CODE_TOOL_NAMES).sort(),
      Object.keys(BUILTIN_TOOL_ALIASES).sort(),
    );
    assert.equal(CLAUDE_CODE_TOOL_NAMES.run_command, "Bash");
    assert.equal(CLAUDE_CODE_TOOL_NAMES.edit_file, "Edit");
    assert.equal(CLAUDE_CODE_TOOL_NAMES.list_dir, "LS");
  });

  it("maps every declared alias back, Claude Code's older names included", () => {
    for (const [ours, aliases] of Object.entries(BUILTIN_TOOL_ALIASES))
      for (const alias of aliases) assert.equal(FROM_CLAUDE_CODE_NAMES[alias], ours, alias);
    assert.equal(FROM_CLAUDE_CODE_NAMES.MultiEdit, "edit_file");
    assert.deepEqual(mapAllowedTool("MultiEdit(docs/**)"), {
      entry: "MultiEdit(docs/**)",
      pattern: "edit_file(docs/**)",
    });
  });
});

// docs/getting-started.md, step by step, on its own files (examples/getting-started): the
// .mcp.json server needs approval, then joins; the project skill is found and not trusted.
// The workspace is inside the repository, so `npx` finds the filesystem server installed in
// node_modules and nothing is fetched.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { parseJson, runCli } from "./support/cli.js";

const GUIDE = fileURLToPath(new URL("../../examples/getting-started/", import.meta.url));

interface ToolsJson {
  tools: Array<{ name: string }>;
  sources: Array<{ id: string; state: string }>;
}

async function withHome(body: (home: TempWorkspace) => Promise<void>): Promise<void> {
  const home = await createTempWorkspace("pc-guide-");
  try {
    await body(home);
  } finally {
    await home.cleanup();
  }
}

describe("the getting-started guide", () => {
  it("approves the .mcp.json server, then lists its tools and the skill", {
    timeout: 60_000,
  }, async () => {
    await withHome(async (home) => {
      const cli = (args: string[]) => runCli(home, [...args, "--workspace", GUIDE]);
      const before = parseJson<ToolsJson>(await cli(["tools", "--json"]));
      assert.equal(
        before.sources.find((source) => source.id === "mcp:files")?.state,
        "needs-approval",
      );
      const approve = await cli(["mcp", "approve"]);
      assert.equal(approve.code, 0, approve.stderr);
      assert.match(
        approve.stdout,
        /approved files: npx -y @modelcontextprotocol\/server-filesystem '\$\{FILES_ROOT:-\.\}'/,
      );
      const after = parseJson<ToolsJson>(await cli(["tools", "--json"]));
      assert.equal(after.sources.find((source) => source.id === "mcp:files")?.state, "ready");
      assert.ok(after.tools.some((tool) => tool.name === "mcp__files__list_directory"));
      const skills = parseJson<{
        skills: Array<{
          name: string;
          layer: string;
          permissions: string[];
          allowed_tools_honoured: boolean;
        }>;
      }>(await cli(["skills", "--json"]));
      assert.deepEqual(
        skills.skills.map((skill) => [skill.name, skill.layer, skill.allowed_tools_honoured]),
        [["commit-message", "project", false]],
      );
      assert.deepEqual(skills.skills[0]?.permissions, [
        "run_command(git diff*)",
        "run_command(git log*)",
      ]);
      const config = parseJson<{ config: { permissions?: { deny?: string[] } } }>(
        await cli(["config", "--json"]),
      );
      assert.deepEqual(config.config.permissions?.deny, ["run_command(rm *)"]);
    });
  });
});

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseJson, runCli, withWorkspace } from "./support/cli.js";

const CONFIG = `permissions:
  allow:
    - read_file
    - "mcp__*"
    - "run_comand(npm test*)"
  deny:
    - wirte_file
    - not_even_close_to_anything
`;

describe("permission rules that name no tool", () => {
  it("are warned about with the tool they most likely meant, by tools", async () => {
    await withWorkspace(async (workspace) => {
      await workspace.writeConfig("user", CONFIG);
      const json = await runCli(workspace, ["tools", "--json"]);
      assert.equal(json.code, 0, json.stderr);
      const { rule_typos: typos } = parseJson<{
        rule_typos?: Array<{ path: string; line?: number; rule: string; suggestion: string }>;
      }>(json);
      assert.deepEqual(
        typos?.map(({ path, line, rule, suggestion }) => ({ path, line, rule, suggestion })),
        [
          {
            path: "permissions.allow[2]",
            line: 5,
            rule: "run_comand(npm test*)",
            suggestion: "run_command",
          },
          { path: "permissions.deny[0]", line: 7, rule: "wirte_file", suggestion: "write_file" },
        ],
      );
      const human = await runCli(workspace, ["tools"]);
      assert.equal(human.code, 0);
      assert.match(
        human.stderr,
        /warning: permissions\.allow\[2\] "run_comand\(npm test\*\)" \(.*config\.yaml:5\) names no tool\. Did you mean "run_command"\?/,
      );
    });
  });

  it("add nothing to tools --json when every rule names a tool", async () => {
    await withWorkspace(async (workspace) => {
      await workspace.writeConfig("user", "permissions:\n  allow: [read_file]\n");
      const json = parseJson<Record<string, unknown>>(await runCli(workspace, ["tools", "--json"]));
      assert.deepEqual(Object.keys(json), [
        "tools",
        "sources",
        "totals",
        "diagnostics",
        "tool_search",
      ]);
    });
  });
});

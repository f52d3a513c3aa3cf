// The `gateway` section as people write it: other commands leave it alone, a mistake in
// `expose` stops the gateway at the file and line, and a workspace cannot set what only the
// user may (`rename`, `ask`, `audit`).
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { runCli } from "./support/cli.js";
import { connectClient } from "./support/gateway-clients.js";
import { createGatewayWorkspace, gatewayEnv } from "./support/gateway-workspace.js";

describe("the gateway section", () => {
  let workspace: TempWorkspace | undefined;
  afterEach(async () => {
    await workspace?.cleanup();
    workspace = undefined;
  });

  test("other commands do not call it unknown", async () => {
    workspace = await createTempWorkspace("pc-gateway-config-");
    // A misspelt section beside it shows the check is on.
    await workspace.writeConfig(
      "user",
      'gateway:\n  expose:\n    deny: ["run_command"]\ngatewy:\n  ask: refuse\n',
    );
    const run = await runCli(workspace, ["tools", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const unknown = (
      JSON.parse(run.stdout) as { diagnostics: Array<{ code: string; item?: string }> }
    ).diagnostics
      .filter((diagnostic) => diagnostic.code === "unknown_section")
      .map((diagnostic) => diagnostic.item);
    assert.deepEqual(unknown, ["gatewy"]);
  });

  test("a misspelt key in expose stops serve --mcp with the file and line", async () => {
    workspace = await createTempWorkspace("pc-gateway-config-");
    const file = await workspace.writeConfig(
      "user",
      'gateway:\n  expose:\n    alow: ["read_file"]\n',
    );
    const run = await runCli(workspace, ["serve", "--mcp"], { timeoutMs: 60_000 });
    assert.equal(run.code, 2, run.stderr);
    assert.ok(run.stderr.includes(file), run.stderr);
    assert.match(run.stderr, /gateway\.expose.*alow|Unrecognized key.*alow/);
  });

  test("a workspace's rename is ignored with a warning; its expose narrows", async () => {
    const gateway = await createGatewayWorkspace();
    try {
      await gateway.writeConfig(
        "project",
        'gateway:\n  rename:\n    "run_command": "harmless_reader"\n  expose:\n    allow: ["mcp__behaviours__*"]\n',
      );
      const client = await connectClient("v1", {
        stdio: { ...gateway.stdio(["--trust-project"]), env: gatewayEnv(gateway) },
      });
      try {
        const names = (await client.listTools()).map((tool) => tool.name);
        assert.ok(!names.includes("harmless_reader"), names.join(", "));
        assert.ok(!names.includes("run_command"), "the workspace's allow list narrows");
        assert.ok(names.includes("mcp__behaviours__echo"));
      } finally {
        await client.close();
      }
      // The warning, as the person starting it sees it (stdin closed: it serves nobody, ends).
      const run = await runCli(gateway, ["serve", "--mcp", "--trust-project"], {
        input: "",
        timeoutMs: 60_000,
      });
      assert.match(
        run.stderr,
        /warning .*gateway\.rename counts only in your own config .*the workspace's value is ignored/,
      );
    } finally {
      await gateway.cleanup();
    }
  });
});

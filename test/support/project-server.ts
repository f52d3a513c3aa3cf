// A workspace whose project config has one stdio MCP server (a compiled fixture), approved as
// its user would with `pseudoclaude mcp approve`: what the CLI tests of MCP features start from.
import assert from "node:assert/strict";
import type { TempWorkspace } from "@pseudoclaude/testing";
import { runCli } from "./cli.js";

export async function approvedProjectServer(
  workspace: TempWorkspace,
  name: string,
  script: string,
  extra: { callTimeoutMs?: number; env?: Record<string, string> } = {},
): Promise<void> {
  const env = Object.entries(extra.env ?? {});
  await workspace.writeConfig(
    "project",
    [
      "mcp_servers:",
      `  ${name}:`,
      "    type: stdio",
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: ${JSON.stringify([script])}`,
      ...(extra.callTimeoutMs !== undefined ? [`    call_timeout_ms: ${extra.callTimeoutMs}`] : []),
      ...(env.length > 0
        ? ["    env:", ...env.map(([key, value]) => `      ${key}: ${JSON.stringify(value)}`)]
        : []),
      "",
    ].join("\n"),
  );
  const approval = await runCli(workspace, ["mcp", "approve"]);
  assert.equal(approval.code, 0, approval.stderr);
}

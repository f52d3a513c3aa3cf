// The status an agent reports for one MCP server's tool source, asserted to exist.
import assert from "node:assert/strict";
import type { Agent } from "@pseudoclaude/core";

export function sourceStatus(agent: Agent, server: string) {
  const report = agent.sources().find((source) => source.id === `mcp:${server}`);
  assert.ok(report, `source mcp:${server} exists`);
  return report.status;
}

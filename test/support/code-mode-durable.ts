// What the code-mode durable tests share: the ledger MCP server in the user's config (it logs
// every call it runs, so "each side effect once" can be read), a script whose model runs one
// program, and the check that nothing a test started is still running.
import assert from "node:assert/strict";
import type { TempWorkspace } from "@pseudoclaude/testing";
import {
  describePids,
  markedProcesses,
  markerEnv,
  stillRunningAfter,
} from "@pseudoclaude/testing/system";
import { fixture } from "#mcp-test/mcp-fixtures.js";

/**
 * The user's config: the ledger server logging to `log`, marked so its process is found; with
 * `readOnlyLookup` its `lookup` is read-only (a replay runs an unfinished read-only call again);
 * `maxDelayMs` caps its delays ("" for none).
 */
export function ledgerConfig(
  workspace: TempWorkspace,
  log: string,
  marker: string,
  options: { readOnlyLookup?: boolean; maxDelayMs?: string } = {},
): Promise<string> {
  const env = {
    FIXTURE_LOG: log,
    ...(options.maxDelayMs !== undefined ? { LEDGER_MAX_DELAY_MS: options.maxDelayMs } : {}),
    ...markerEnv(marker),
  };
  return workspace.writeConfig(
    "user",
    [
      "mcp_servers:",
      "  ledger:",
      "    type: stdio",
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: ${JSON.stringify([fixture("ledger")])}`,
      ...(options.readOnlyLookup ? ['    read_only_tools: ["lookup"]'] : []),
      "    env:",
      ...Object.entries(env).map(([key, value]) => `      ${key}: ${JSON.stringify(value)}`),
      "",
    ].join("\n"),
  );
}

/** A script file: the model runs `code` as call `p1`, then says `text`. */
export function programScript(
  workspace: TempWorkspace,
  name: string,
  code: string,
  text: string,
): Promise<string> {
  return workspace.write(
    name,
    JSON.stringify([
      { tool_calls: [{ id: "p1", name: "code_mode", arguments: { code } }] },
      { text },
    ]),
  );
}

/** Nothing carrying the marker runs any more (a SIGKILLed process needs a moment to be gone). */
export async function assertNothingLeft(marker: string, when: string): Promise<void> {
  const left = await stillRunningAfter(markedProcesses(marker), 5_000);
  assert.deepEqual(left, [], `left running ${when}: ${describePids(left)}`);
}

// Runs a body against an agent whose stdio MCP servers all append to one fixture log, and whose
// elicitations are answered and recorded, so era tests can count processes and requests.
import type { Agent, ElicitationRequest } from "@pseudoclaude/core";
import { elicitingAgent, scratch } from "./mcp-fixtures.js";

export async function withEraAgent(
  servers: Record<string, Record<string, unknown>>,
  body: (
    agent: Agent,
    log: { lines(): Promise<string[]> },
    asked: ElicitationRequest[],
  ) => Promise<void>,
): Promise<void> {
  const log = await scratch();
  const withLog = Object.fromEntries(
    Object.entries(servers).map(([name, entry]) => [
      name,
      { ...entry, env: { ...(entry.env as object), FIXTURE_LOG: log.log } },
    ]),
  );
  const { agent, asked } = await elicitingAgent(withLog);
  try {
    await body(agent, log, asked);
  } finally {
    await agent.close();
    await log.cleanup();
  }
}

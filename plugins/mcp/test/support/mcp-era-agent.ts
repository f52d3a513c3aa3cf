// Runs a body against an agent whose stdio MCP servers all append to one fixture log, and whose
// elicitations are answered and recorded, so era tests can count processes and requests.
import { type Agent, type ElicitationRequest, textOf } from "@pseudoclaude/core";
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

/** What the modern fixture's request_meta tool saw of its request: its id and envelope. */
export type SeenRequest = { id: unknown; envelope?: Record<string, unknown> };

/**
 * Call `tool` (a modern fixture's request_meta) twice: plainly, then wanting progress, which
 * sends it through the v2 client. What the server saw of each, in that order.
 */
export async function seenPlainAndThroughClient(
  agent: Agent,
  tool: string,
): Promise<[SeenRequest, SeenRequest]> {
  const seen = async (options?: { onProgress: () => void }) => {
    const call = await agent.callTool(tool, {}, options);
    return JSON.parse(textOf(call.result.content)) as SeenRequest;
  };
  const plain = await seen();
  return [plain, await seen({ onProgress: () => undefined })];
}

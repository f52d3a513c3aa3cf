// The studio in this process over a real agent whose only server is the plugin's MCP App
// fixture (the counter, over stdio): what the studio's App tests start and stop.
import os from "node:os";
import { type Agent, type CreateAgentOptions, createAgent } from "@pseudoclaude/core";
import { mcp } from "@pseudoclaude/plugin-mcp";
import { ApprovalDesk, SpanRecorder, type Studio, startStudio } from "@pseudoclaude/studio";
import { stdioFixture } from "#mcp-test/mcp-fixtures.js";

/** A running studio over the counter App, and how to stop all of it. */
export interface CounterStudio {
  agent: Agent;
  studio: Studio;
  close(): Promise<void>;
}

/** What a test changes: the fixture's environment, the policy, the model. */
export interface CounterStudioOptions {
  env?: Record<string, string>;
  policy?: CreateAgentOptions["policy"];
  provider?: CreateAgentOptions["provider"];
}

export async function startCounterStudio(
  options: CounterStudioOptions = {},
): Promise<CounterStudio> {
  // The person answers in the page: the agent asks the studio's desk.
  const desk = new ApprovalDesk();
  const agent = await createAgent({
    config: false,
    approve: desk.approver,
    elicit: desk.elicitor,
    workspace: os.tmpdir(),
    ...(options.policy ? { policy: options.policy } : {}),
    ...(options.provider ? { provider: options.provider } : {}),
    plugins: [
      mcp({
        appHost: {},
        servers: {
          counter: stdioFixture("app-server", options.env ? { env: options.env } : {}),
        },
      }),
    ],
  });
  const spans = await SpanRecorder.start();
  const studio = await startStudio({ agent, desk, spans });
  return {
    agent,
    studio,
    async close() {
      await studio.close();
      await agent.close();
      await spans.shutdown();
    },
  };
}

// End to end over real stdio: server-everything started per test with the options under test
// (trusted annotations, an elicit callback), and the server process ending with the agent.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type ElicitationRequest, textOf } from "@pseudoclaude/core";
import {
  commandLine,
  describePids,
  isRunning,
  markedProcesses,
  parentOf,
} from "@pseudoclaude/testing/system";
import {
  CLOSE_BOUND_MS,
  everything,
  startAgent,
  TIMEOUT,
  toolsOf,
  untilConditionalToolsListed,
} from "./support/mcp-reference-servers.js";

describe("server-everything with options", () => {
  it("honours readOnlyHint only when trust_annotations is on", TIMEOUT, async () => {
    const harness = await startAgent(everything({ trust_annotations: true }));
    try {
      await untilConditionalToolsListed(harness.agent);
      const tools = toolsOf(harness.agent, "everything");
      const hinted = tools.filter((tool) => tool.annotations?.readOnlyHint === true);
      const others = tools.filter((tool) => tool.annotations?.readOnlyHint !== true);
      assert.ok(
        hinted.some((tool) => tool.name === "mcp__everything__echo"),
        "echo is hinted read-only",
      );
      assert.ok(others.length > 0, "some tools are not hinted read-only");
      for (const tool of hinted) assert.equal(tool.safety, "read_only", tool.name);
      for (const tool of others) assert.equal(tool.safety, "side_effect", tool.name);
    } finally {
      await harness.dispose();
    }
  });

  it("passes an accepted elicitation's content back to the server", TIMEOUT, async () => {
    const requests: ElicitationRequest[] = [];
    const harness = await startAgent(everything(), {
      policy: { allow: ["mcp__everything__*"] },
      elicit: async (request) => {
        requests.push(request);
        return { action: "accept", content: { name: "Ada Lovelace", check: true } };
      },
    });
    try {
      await untilConditionalToolsListed(harness.agent, { elicitation: true });
      const { result } = await harness.agent.callTool(
        "mcp__everything__trigger-elicitation-request",
        {},
      );
      assert.equal(result.ok, true, JSON.stringify(result));
      assert.equal(requests.length, 1);
      assert.equal(requests[0]!.source, "mcp:everything");
      assert.ok(
        Object.hasOwn(requests[0]!.requestedSchema.properties as object, "name"),
        "the requested schema reaches the callback",
      );
      const text = textOf(result.content);
      assert.match(text, /User provided the requested information/);
      assert.match(text, /Name: Ada Lovelace/);
      assert.match(text, /Agreed to terms: true/);
    } finally {
      await harness.dispose();
    }
  });

  it("ends the server process when the agent closes", TIMEOUT, async () => {
    const harness = await startAgent(everything());
    try {
      const pids = markedProcesses(harness.marker);
      assert.equal(pids.length, 1, `one server process: ${describePids(pids)}`);
      const [pid] = pids as [number];
      assert.equal(parentOf(pid), process.pid, "spawned by this process");
      assert.match(commandLine(pid), /server-everything.*stdio/);

      const started = Date.now();
      await harness.agent.close();
      const elapsed = Date.now() - started;
      assert.ok(elapsed < CLOSE_BOUND_MS, `close took ${elapsed} ms`);
      assert.equal(isRunning(pid), false, `server ${pid} is gone after close`);
      assert.deepEqual(markedProcesses(harness.marker), []);
    } finally {
      await harness.dispose(); // close is safe to call twice
    }
  });
});

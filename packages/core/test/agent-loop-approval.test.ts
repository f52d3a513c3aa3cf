import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type PolicyEngine } from "@pseudoclaude/core";
import { createTestTool } from "@pseudoclaude/testing";
import { agentWith, toolMessages } from "./support/scripted-agent.js";

describe("agent loop", () => {
  it("gives a denied call back to the model as a structured result", async () => {
    const write = createTestTool({ name: "write" });
    const { agent, provider } = await agentWith(
      [write],
      [{ tool_calls: [{ name: "write", arguments: {} }] }, { text: "ok" }],
    );
    const result = await agent.run("go");
    await agent.close();
    const record = result.toolCalls[0]!;
    assert.equal(record.decision.verdict, "ask");
    assert.equal(record.approval, "no_approver");
    assert.equal(record.result.error?.code, "denied");
    assert.match(record.result.error!.message, /needs approval/);
    assert.equal(write.calls.length, 0);
    assert.equal(toolMessages(provider, 1)[0]!.result.error?.code, "denied");
  });

  it("runs an asked call when the approver allows it and refuses it when the approver denies", async () => {
    const write = createTestTool({ name: "write" });
    const asked: string[] = [];
    const { agent } = await agentWith(
      [write],
      [
        {
          tool_calls: [
            { name: "write", arguments: { n: 1 } },
            { name: "write", arguments: { n: 2 } },
          ],
        },
        { text: "ok" },
      ],
      {
        approve: (request) => {
          asked.push(request.tool.name);
          return (request.call.arguments as { n: number }).n === 1
            ? "allow"
            : { verdict: "deny", reason: "not that one" };
        },
      },
    );
    const result = await agent.run("go");
    await agent.close();
    assert.deepEqual(asked, ["write", "write"]);
    assert.deepEqual(
      result.toolCalls.map((r) => r.approval),
      ["approved", "rejected"],
    );
    assert.equal(result.toolCalls[0]!.result.ok, true);
    assert.match(result.toolCalls[1]!.result.error!.message, /not that one/);
    assert.deepEqual(
      write.calls.map((c) => c.args),
      [{ n: 1 }],
    );
  });

  it("does not ask a person to approve a call whose arguments cannot be valid", async () => {
    const write = createTestTool({ name: "write" });
    write.validate = (args) =>
      typeof args.path === "string" ? { ok: true } : { ok: false, message: "path: required" };
    let asked = 0;
    const { agent } = await agentWith(
      [write],
      [{ tool_calls: [{ name: "write", arguments: { nope: 1 } }] }, { text: "ok" }],
      {
        approve: () => {
          asked += 1;
          return "allow";
        },
      },
    );
    const result = await agent.run("go");
    await agent.close();
    assert.equal(asked, 0);
    assert.equal(result.toolCalls[0]!.decision.verdict, "ask");
    assert.equal(result.toolCalls[0]!.result.error?.code, "invalid_arguments");
    assert.match(result.toolCalls[0]!.result.error!.message, /path: required/);
    assert.equal(write.calls.length, 0);
  });

  it("offers only read-only tools in plan mode and denies the rest even if the model calls them", async () => {
    const read = createTestTool({ name: "read", safety: "read_only" });
    const write = createTestTool({ name: "write" });
    const { agent, provider } = await agentWith(
      [read, write],
      [{ tool_calls: [{ name: "write" }] }, { text: "ok" }],
      {
        policy: { mode: "plan" },
        approve: () => "allow",
      },
    );
    const result = await agent.run("go");
    await agent.close();
    assert.deepEqual(provider.requests[0]!.toolNames, ["read"]);
    assert.equal(result.toolCalls[0]!.decision.verdict, "deny");
    assert.equal(write.calls.length, 0);
  });

  it("does not offer a tool denied by rule", async () => {
    const { agent, provider } = await agentWith(
      [
        createTestTool({ name: "keep", safety: "read_only" }),
        createTestTool({ name: "secret_drop" }),
      ],
      [{ text: "ok" }],
      { policy: { deny: ["secret_*"] } },
    );
    await agent.run("go");
    await agent.close();
    assert.deepEqual(provider.requests[0]!.toolNames, ["keep"]);
  });

  it("denies every call when the policy engine throws (fails closed)", async () => {
    const broken: PolicyEngine = {
      mode: "default",
      isOffered: () => true,
      decide: () => {
        throw new Error("rules database offline");
      },
    };
    const { agent } = await agentWith(
      [createTestTool({ name: "read", safety: "read_only" })],
      [{ tool_calls: [{ name: "read" }] }, { text: "ok" }],
      { policyEngine: broken },
    );
    const result = await agent.run("go");
    await agent.close();
    assert.equal(result.toolCalls[0]!.decision.verdict, "deny");
    assert.match(result.toolCalls[0]!.result.error!.message, /rules database offline/);
  });
});

// Approvers as the docs describe them: sync or async, `async () => "allow"` included (it must
// compile under strict settings), the object form with a reason, and an answer that is neither
// allow nor deny denying the call with a reason that quotes it; and a call's own approver.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Approver, createAgent, defineTool } from "@pseudoclaude/core";
import { z } from "zod";

const deploy = defineTool({
  name: "deploy",
  description: "Deploy.",
  input: z.object({}),
  safety: "side_effect",
  execute: () => "deployed",
});

/** Deploys on the way, through the agent running it: a call inside a call. */
const release = defineTool({
  name: "release",
  description: "Release.",
  input: z.object({}),
  safety: "side_effect",
  execute: async (_input, context) => {
    const inner = await context.agent!.callTool("deploy", {});
    return `inner ${inner.approval}`;
  },
});

async function outcome(approve: Approver) {
  const agent = await createAgent({ tools: [deploy], config: false, approve });
  try {
    return await agent.callTool("deploy", {});
  } finally {
    await agent.close();
  }
}

describe("approvers", () => {
  it("takes an async arrow that returns a literal, and a sync one", async () => {
    const asyncAllow = await outcome(async () => "allow");
    assert.equal(asyncAllow.approval, "approved");
    assert.equal(asyncAllow.result.ok, true);
    const syncDeny = await outcome(() => "deny");
    assert.equal(syncDeny.approval, "rejected");
    assert.equal(syncDeny.result.error?.code, "denied");
  });

  it("passes the person's reason on", async () => {
    const denied = await outcome(async () => ({ verdict: "deny", reason: "not on Fridays" }));
    assert.equal(denied.result.error?.message, "The user rejected this call: not on Fridays");
  });

  it("denies an answer that is neither allow nor deny, and says what it was", async () => {
    const typo = await outcome(async () => "alow");
    assert.equal(typo.approval, "rejected");
    assert.equal(typo.result.ok, false);
    assert.match(
      typo.result.error?.message ?? "",
      /the approver answered "alow", which is neither "allow" nor "deny"/,
    );
  });

  it("asks a call's own approver instead of the agent's, and only when the policy asks", async () => {
    const asked: string[] = [];
    const agent = await createAgent({
      tools: [deploy, release],
      config: false,
      approve: () => {
        asked.push("agent");
        return "deny";
      },
    });
    try {
      const own = await agent.callTool(
        "deploy",
        {},
        {
          approver: (request) => {
            asked.push(`call ${request.call.name}`);
            return { verdict: "allow", reason: "the caller's person said yes" };
          },
        },
      );
      assert.equal(own.approval, "approved");
      assert.equal(own.result.ok, true);
      const plain = await agent.callTool("deploy", {});
      assert.equal(plain.approval, "rejected");
      assert.deepEqual(asked, ["call deploy", "agent"]);

      // The answer is for that call only: a call its tool makes while it runs is the agent's.
      asked.length = 0;
      const nested = await agent.callTool("release", {}, { approver: () => "allow" });
      assert.equal(nested.approval, "approved");
      assert.deepEqual(nested.result.content, [{ type: "text", text: "inner rejected" }]);
      assert.deepEqual(asked, ["agent"]);

      // A policy that denies is not asked about: the call's approver cannot widen it.
      const strict = await createAgent({
        tools: [deploy],
        config: false,
        policy: { deny: ["deploy"] },
      });
      try {
        const denied = await strict.callTool("deploy", {}, { approver: () => "allow" });
        assert.equal(denied.approval, undefined);
        assert.equal(denied.result.error?.code, "denied");
      } finally {
        await strict.close();
      }
    } finally {
      await agent.close();
    }
  });
});

// Approvers as the docs describe them: sync or async, `async () => "allow"` included (it must
// compile under strict settings), the object form with a reason, and an answer that is neither
// allow nor deny denying the call with a reason that quotes it.
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
});

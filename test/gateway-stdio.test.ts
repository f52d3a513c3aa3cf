// `pseudoclaude serve --mcp` over real stdio, driven by the official SDK clients of both lines
// (v1 at 2025-11-25, v2 pinned to each era).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { describeGatewayCases, text, waitFor } from "./support/gateway-cases.js";
import { CLIENT_KINDS, connectClient } from "./support/gateway-clients.js";
import { createGatewayWorkspace } from "./support/gateway-workspace.js";

for (const kind of CLIENT_KINDS)
  describeGatewayCases("stdio", kind, async () => {
    const workspace = await createGatewayWorkspace();
    return { workspace, connection: { stdio: workspace.stdio() }, close: async () => undefined };
  });

describe("gateway over stdio, a client without elicitation", () => {
  for (const kind of ["v1", "v2@2026-07-28"] as const)
    test(`${kind}: a call needing approval is refused with what to do`, async () => {
      const workspace = await createGatewayWorkspace();
      const client = await connectClient(
        kind,
        { stdio: workspace.stdio() },
        { elicitation: false },
      );
      try {
        const result = await client.callTool("mcp__behaviours__progress", {});
        assert.equal(result.isError, true);
        assert.match(text(result), /needs approval, and this client cannot answer/);
        assert.match(text(result), /allow rule for "mcp__behaviours__progress"/);
        const records = await waitFor(async () => {
          const all = await workspace.auditRecords();
          return all.length > 0 ? all : undefined;
        });
        assert.equal(records[0]?.decision, "refused");
      } finally {
        await client.close();
        await workspace.cleanup();
      }
    });
});

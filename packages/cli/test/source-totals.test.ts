import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sourceTotals } from "../src/source-totals.js";

describe("source totals", () => {
  it("adds up the counters of sources of one kind and leaves single sources out", () => {
    const totals = sourceTotals([
      {
        id: "mcp:a",
        status: { state: "ready", stats: { configured: 1, connected: 1, registered: 4 } },
      },
      {
        id: "mcp:b",
        status: { state: "failed", stats: { configured: 1, connected: 0, registered: 0 } },
      },
      { id: "builtin", status: { state: "ready", stats: { tools: 7 } } },
    ]);
    assert.deepEqual(totals, { mcp: { configured: 2, connected: 1, registered: 4 } });
  });
});

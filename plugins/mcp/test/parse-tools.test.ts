// A listing's tools are checked one by one, whatever its size: a long listing is parsed by zod's
// generated parser and a short one without it, and both keep the same tools and name the same
// invalid ones with the same reasons.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseTools } from "../src/session/parse-tools.js";

function listing(size: number): unknown[] {
  return Array.from({ length: size }, (_, i) => {
    if (i % 100 === 7) return { name: `broken_${i}`, inputSchema: { type: "string" } };
    if (i % 100 === 8) return { description: "no name", inputSchema: { type: "object" } };
    if (i % 100 === 9) return { name: `bare_${i}`, inputSchema: {} };
    return {
      name: `tool_${i}`,
      description: `Tool ${i}.`,
      inputSchema: { type: "object", properties: { value: { type: "string" } } },
      annotations: { readOnlyHint: i % 2 === 0 },
    };
  });
}

describe("parseTools", () => {
  it("keeps and refuses the same tools in a short listing and a long one", () => {
    const long = parseTools(listing(1_000));
    const shorts = Array.from({ length: 10 }, (_, part) =>
      parseTools(listing(1_000).slice(part * 100, part * 100 + 100)),
    );
    assert.deepEqual(
      long.tools,
      shorts.flatMap((page) => page.tools),
    );
    assert.deepEqual(
      long.invalid,
      shorts.flatMap((page) => page.invalid),
    );
    assert.equal(long.tools.length, 980);
    assert.equal(long.invalid.length, 20);
    assert.deepEqual(long.invalid[0], {
      name: "broken_7",
      message: long.invalid[0]?.message,
    });
    assert.match(long.invalid[0]?.message ?? "", /^inputSchema\.type: /);
    assert.match(long.invalid[1]?.message ?? "", /^name: /);
    const bare = long.tools.find((tool) => tool.name === "bare_9");
    assert.equal(bare?.inputSchema, undefined);
    assert.equal(long.tools[0]?.annotations?.readOnlyHint, true);
  });
});

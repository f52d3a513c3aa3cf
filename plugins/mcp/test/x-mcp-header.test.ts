// The 2026-07-28 rules for x-mcp-header declarations: a tool breaking them is left out of an
// HTTP server's listing (its other tools stay), so each rule must name what is wrong.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { xMcpHeaderFault } from "../src/session/tool-listing.js";

const withProperties = (properties: Record<string, unknown>) => ({ type: "object", properties });

describe("xMcpHeaderFault", () => {
  it("accepts primitive parameters with distinct token names, nested under properties too", () => {
    assert.equal(
      xMcpHeaderFault(
        withProperties({
          region: { type: "string", "x-mcp-header": "Region" },
          priority: { type: "integer", "x-mcp-header": "Priority" },
          nested: {
            type: "object",
            properties: { flag: { type: "boolean", "x-mcp-header": "Flag" } },
          },
          plain: { type: "number" },
        }),
      ),
      undefined,
    );
    assert.equal(xMcpHeaderFault(undefined), undefined);
  });

  const faults: Array<[string, unknown, RegExp]> = [
    ["an empty name", withProperties({ v: { type: "string", "x-mcp-header": "" } }), /non-empty/],
    [
      "an object",
      withProperties({ v: { type: "object", "x-mcp-header": "V" } }),
      /string, integer or boolean/,
    ],
    [
      "a number",
      withProperties({ v: { type: "number", "x-mcp-header": "V" } }),
      /string, integer or boolean/,
    ],
    [
      "a space",
      withProperties({ v: { type: "string", "x-mcp-header": "My Name" } }),
      /not an HTTP token/,
    ],
    [
      "a colon",
      withProperties({ v: { type: "string", "x-mcp-header": "A:B" } }),
      /not an HTTP token/,
    ],
    [
      "non-ASCII",
      withProperties({ v: { type: "string", "x-mcp-header": "Régión" } }),
      /not an HTTP token/,
    ],
    [
      "a repeat in another case",
      withProperties({
        a: { type: "string", "x-mcp-header": "Region" },
        b: { type: "string", "x-mcp-header": "REGION" },
      }),
      /repeats "Region"/,
    ],
    [
      "a place only items reach",
      withProperties({
        list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } },
      }),
      /reached through "properties"/,
    ],
    [
      "a branch of anyOf",
      withProperties({ v: { anyOf: [{ type: "string", "x-mcp-header": "V" }] } }),
      /reached through "properties"/,
    ],
    [
      "a $defs entry",
      { ...withProperties({}), $defs: { d: { type: "string", "x-mcp-header": "D" } } },
      /reached through "properties"/,
    ],
  ];
  for (const [what, schema, expected] of faults)
    it(`refuses ${what}`, () => assert.match(xMcpHeaderFault(schema) ?? "", expected));
});

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { VALID_TOOL_NAME } from "@pseudoclaude/core/plugin";
import fc from "fast-check";
import { assignLocalNames } from "../src/adapt/tool-name.js";

/**
 * Property tests of local tool names: whatever a server calls itself and its tools (Unicode,
 * very long, colliding once cleaned), every local name is valid for every provider, distinct,
 * the same on every run and whatever the list order, and names exactly one remote tool.
 */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);

const anyName = fc.oneof(
  fc.string({ minLength: 1, maxLength: 80 }),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }),
  fc.stringMatching(/^[a-z_]{1,10}$/),
  // Names that collide once cleaned: the same letters with different invalid characters.
  fc.constantFrom("read file", "read-file", "read.file", "read/file", "read_file", "READ FILE"),
  fc.string({ minLength: 60, maxLength: 200 }).map((long) => `long_${long}`),
);
const serverName = fc.oneof(
  fc.stringMatching(/^[a-z0-9_-]{1,20}$/),
  fc.string({ minLength: 1, maxLength: 30 }),
);
const toolNames = fc.uniqueArray(anyName, { minLength: 1, maxLength: 30 });

describe("property: local names of remote tools", () => {
  it("are valid for every provider, distinct, and map one-to-one onto the remote names", () => {
    fc.assert(
      fc.property(serverName, toolNames, (server, remotes) => {
        const named = assignLocalNames(server, remotes);
        assert.equal(named.length, remotes.length);
        for (const [i, tool] of named.entries()) {
          assert.match(tool.localName, VALID_TOOL_NAME, JSON.stringify(tool));
          assert.equal(tool.remoteName, remotes[i], "in the order given, each its own remote");
        }
        assert.equal(new Set(named.map((tool) => tool.localName)).size, remotes.length);
      }),
      { numRuns: RUNS },
    );
  });

  it("are the same on every run and whatever order the server lists its tools in", () => {
    fc.assert(
      fc.property(serverName, toolNames, fc.nat(), (server, remotes, seed) => {
        const once = new Map(
          assignLocalNames(server, remotes).map((t) => [t.remoteName, t.localName]),
        );
        const again = new Map(
          assignLocalNames(server, remotes).map((t) => [t.remoteName, t.localName]),
        );
        assert.deepEqual(again, once);
        const shuffled = [...remotes].sort(
          (a, b) => ((hash(a) ^ seed) >>> 0) - ((hash(b) ^ seed) >>> 0),
        );
        const reordered = new Map(
          assignLocalNames(server, shuffled).map((t) => [t.remoteName, t.localName]),
        );
        assert.deepEqual(reordered, once);
      }),
      { numRuns: RUNS },
    );
  });

  it("keep mcp__<server>__<tool> exactly when that full name is valid and free", () => {
    // Names near the length limit, on either side of it, and servers whose prefix is itself
    // invalid or over-long: where checking the prefix and the tool's name apart could differ
    // from checking the full name.
    const nearLimit = fc
      .integer({ min: 40, max: 70 })
      .map((length) => "t".repeat(length))
      .chain((base) => fc.constantFrom(base, `${base}-x`, base.slice(0, 50), `${base} x`));
    const servers = fc.oneof(serverName, fc.constant("s".repeat(70)), fc.constant(""));
    fc.assert(
      fc.property(
        servers,
        fc.uniqueArray(fc.oneof(anyName, nearLimit), { maxLength: 30 }),
        (server, remotes) => {
          const named = assignLocalNames(server, remotes);
          for (const tool of named) {
            const full = `mcp__${server}__${tool.remoteName}`;
            if (VALID_TOOL_NAME.test(full)) {
              assert.equal(tool.localName, full, JSON.stringify(tool));
              assert.equal(tool.renamed, undefined);
            } else {
              assert.notEqual(tool.localName, full);
              assert.ok(tool.renamed, JSON.stringify(tool));
            }
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("never take a name already taken by another source", () => {
    fc.assert(
      fc.property(serverName, toolNames, (server, remotes) => {
        const first = assignLocalNames(server, remotes).map((tool) => tool.localName);
        const taken = new Set(first);
        const second = assignLocalNames(server, remotes, taken);
        for (const tool of second) assert.ok(!taken.has(tool.localName), tool.localName);
        assert.equal(new Set(second.map((tool) => tool.localName)).size, remotes.length);
      }),
      { numRuns: RUNS },
    );
  });
});

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h;
}

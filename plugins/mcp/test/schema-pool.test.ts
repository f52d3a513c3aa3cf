// Tools listed with the same schema share one object (a server of generated tools lists
// thousands of copies), each still checks its own arguments and reports its own name.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Diagnostic, LoadedConfig } from "@pseudoclaude/core";
import { DefaultRedactor, type ToolExecutionContext } from "@pseudoclaude/core/plugin";
import fc from "fast-check";
import { adaptServerTools } from "../src/adapt/adapt-server-tools.js";
import type { RemoteCaller } from "../src/adapt/adapt-tool.js";
import { SchemaPool } from "../src/adapt/schema-pool.js";
import { loadServers } from "../src/index.js";
import type { RemoteCallResult, RemoteTool } from "../src/mcp-session.js";

const [server] = loadServers(LoadedConfig.fromTexts({}), {
  workspace: "/ws",
  redactor: new DefaultRedactor(),
  env: {},
  codeServers: { pool: { command: "node" } },
  consent: { isApproved: () => true },
}).servers;

/** What a call gets from the registry, as much of it as a remote tool reads. */
const context = {
  callId: "c1",
  signal: new AbortController().signal,
  onAbort: () => ({ dispose() {} }),
  timeoutMs: 1000,
  workspace: "/ws",
  reportProgress() {},
  progressWanted: false,
  reportTask() {},
} as unknown as ToolExecutionContext;

const search = () => ({
  type: "object",
  properties: { query: { type: "string" }, limit: { type: "integer", minimum: 1 } },
  required: ["query"],
});

const listing = (): RemoteTool[] => [
  { name: "find_a", inputSchema: search(), outputSchema: { type: "object" } },
  { name: "find_b", inputSchema: search(), outputSchema: { type: "object" } },
  // The same keywords in another order: another text, so a schema of its own.
  {
    name: "find_c",
    inputSchema: { required: ["query"], type: "object", properties: search().properties },
  },
  { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
];

/** The server end as the tools reach it: which remote tool each call went to. */
class RecordingCaller implements RemoteCaller {
  readonly called: string[] = [];
  async call(remoteName: string): Promise<RemoteCallResult> {
    this.called.push(remoteName);
    return { content: [{ type: "text", text: remoteName }], structuredContent: {} };
  }
}

describe("schemas shared within a listing", () => {
  it("gives tools with the same schema text one object and the others their own", () => {
    const { tools } = adaptServerTools(server!, listing(), new RecordingCaller());
    const [a, b, c, echo] = tools.map((tool) => tool.definition);
    assert.equal(a!.inputSchema, b!.inputSchema);
    assert.equal(a!.meta?.output_schema, b!.meta?.output_schema);
    assert.notEqual(c!.inputSchema, a!.inputSchema);
    assert.deepEqual(c!.inputSchema, a!.inputSchema);
    assert.notEqual(echo!.inputSchema, a!.inputSchema);
    assert.deepEqual(echo!.inputSchema, listing()[3]!.inputSchema);
  });

  it("keeps each tool's own validation, diagnostics and remote name", async () => {
    const caller = new RecordingCaller();
    const reported: Diagnostic[] = [];
    const broken = { type: "object", properties: { query: { type: 5 } } };
    const { tools } = adaptServerTools(
      server!,
      [
        ...listing(),
        { name: "bad_a", inputSchema: structuredClone(broken) },
        { name: "bad_b", inputSchema: structuredClone(broken) },
      ],
      caller,
      (diagnostic) => reported.push(diagnostic),
    );
    const [a, b] = tools;
    assert.deepEqual(a!.validate!({ query: "x" }), { ok: true });
    assert.deepEqual(b!.validate!({ query: "x", limit: 0 }), {
      ok: false,
      message: "limit: must be >= 1",
    });
    const result = await b!.execute({ query: "x" }, context);
    assert.equal(result.ok, true);
    assert.deepEqual(caller.called, ["find_b"]);

    const [badA, badB] = tools.slice(-2);
    assert.equal(badA!.definition.inputSchema, badB!.definition.inputSchema);
    badA!.validate!({ query: "x" });
    badB!.validate!({ query: "x" });
    assert.deepEqual(
      reported.map((diagnostic) => [diagnostic.code, diagnostic.item]),
      [
        ["schema_not_compiled", "pool/bad_a"],
        ["schema_not_compiled", "pool/bad_b"],
      ],
    );
  });
});

describe("property: the schema pool", () => {
  // A few schemas listed again and again (as generated tools are), the same keywords in
  // another order, and schemas of their own; every value a fresh parse, as a listing gives.
  const base = [
    { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
    { required: ["q"], type: "object", properties: { q: { type: "string" } } },
    { type: "object", properties: { q: { type: "string" }, n: { type: "integer", minimum: 1 } } },
    { type: "object", properties: { q: { type: "string", enum: ["a", "b"] } } },
    { type: "object", properties: { q: { type: "string", enum: ["b", "a"] } } },
    { type: "object" },
  ];
  const schema = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...base) },
    { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue()) },
  );

  it("shares one object between two schemas exactly when their texts are the same", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(schema, fc.boolean()), { maxLength: 80 }), (listed) => {
        const pool = new SchemaPool();
        const given = listed.map(([value, output]) => ({
          value: JSON.parse(JSON.stringify(value)) as Record<string, unknown>,
          role: output ? ("output" as const) : ("input" as const),
        }));
        const out = given.map(({ value, role }) => pool.shared(value, role));
        const texts = given.map(({ value }) => JSON.stringify(value));
        out.forEach((shared, i) => {
          assert.equal(JSON.stringify(shared), texts[i]);
          for (let j = 0; j < i; j++)
            assert.equal(shared === out[j], texts[i] === texts[j], `${texts[i]} / ${texts[j]}`);
        });
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 300) },
    );
  });
});

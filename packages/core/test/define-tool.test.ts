import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import type { ToolExecutionContext } from "../src/contracts/tool.js";
import { defineTool } from "../src/tools/define-tool.js";

const input = z.object({
  path: z.string().describe("File to read"),
  limit: z.number().int().positive().default(100),
});

function spec(schema: z.ZodObject) {
  return {
    name: "read",
    description: "Read a file.",
    input: schema,
    safety: "read_only" as const,
    source: "test",
    execute: (args: Record<string, unknown>) => JSON.stringify(args),
  };
}

describe("defineTool", () => {
  it("gives the model the input JSON Schema zod describes, without a $schema dialect", () => {
    const { definition } = defineTool(spec(input));
    const expected = z.toJSONSchema(input, { io: "input" }) as Record<string, unknown>;
    delete expected.$schema;
    assert.deepEqual(definition.inputSchema, expected);
    assert.equal(
      (definition.inputSchema.properties as Record<string, { description?: string }>).path
        ?.description,
      "File to read",
    );
    // Input mode: a field with a default is optional for the model.
    assert.deepEqual(definition.inputSchema.required, ["path"]);
  });

  it("describes a schema without a toJSONSchema method (zod before 4.2) the same way", () => {
    const older = z.object({ path: z.string().describe("File to read") });
    const expected = defineTool(spec(older)).definition.inputSchema;
    Object.defineProperty(older, "toJSONSchema", { value: undefined });
    assert.equal(typeof older.toJSONSchema, "undefined");
    assert.deepEqual(defineTool(spec(older)).definition.inputSchema, expected);
  });

  it("validates once, naming the path, and runs on what zod parsed", async () => {
    const tool = defineTool(spec(input));
    const bad = tool.validate?.({ path: 3 });
    assert.deepEqual(bad, {
      ok: false,
      message: "path: Invalid input: expected string, received number",
    });
    const good = tool.validate?.({ path: "a.txt" });
    assert.deepEqual(good, { ok: true, value: { path: "a.txt", limit: 100 } });
    const result = await tool.execute(good?.ok ? good.value : {}, {} as ToolExecutionContext);
    assert.deepEqual(result.content, [{ type: "text", text: '{"path":"a.txt","limit":100}' }]);
  });
});

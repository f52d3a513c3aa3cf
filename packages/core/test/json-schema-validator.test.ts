// The kernel's one JSON Schema compiler: structured output, MCP arguments and MCP results all
// go through it, so its dialect rules and its issue format are checked once, here.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  compileJsonSchema,
  describeIssues,
  JsonSchemaCompileError,
} from "../src/schema/json-schema-validator.js";

describe("compileJsonSchema", () => {
  const shape = {
    type: "object",
    properties: { n: { type: "number" }, tags: { type: "array", items: { type: "string" } } },
    required: ["n"],
    additionalProperties: false,
  };

  it("names each issue by its path, or the root's name, with what is missing or extra", () => {
    const all = compileJsonSchema(shape, { allErrors: true, root: "(answer)" });
    assert.deepEqual(all.issues({ n: 1, tags: ["a"] }), []);
    assert.deepEqual(all.issues({ tags: ["a", 2], extra: true }), [
      { path: "(answer)", message: "must have required property 'n' (n)" },
      { path: "(answer)", message: "must NOT have additional properties (extra)" },
      { path: "tags.1", message: "must be string" },
    ]);
    const first = compileJsonSchema(shape, { root: "(arguments)" });
    assert.equal(
      first.issues({ tags: [2] }).length,
      1,
      "the first issue only, unless all are asked",
    );
  });

  it("reads 2020-12 by default and draft-07 rules when a schema declares them", () => {
    // prefixItems is 2020-12; under draft-07 an array-valued items is the tuple form.
    const tuple2020 = { type: "array", prefixItems: [{ type: "number" }] };
    assert.equal(compileJsonSchema(tuple2020).issues(["x"]).length, 1);
    const tuple07 = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "array",
      items: [{ type: "number" }],
    };
    assert.equal(compileJsonSchema(tuple07).issues(["x"]).length, 1);
    assert.equal(compileJsonSchema(tuple07).issues([1]).length, 0);
  });

  it("leaves out a $schema neither engine knows instead of failing the compile", () => {
    const schema = { $schema: "https://json-schema.org/draft/2019-09/schema", type: "string" };
    assert.equal(compileJsonSchema(schema).issues(3).length, 1);
  });

  it("throws JsonSchemaCompileError for a schema that cannot compile, every time it is asked", () => {
    const broken = { type: "object", properties: { a: { $ref: "#/$defs/missing" } } };
    assert.throws(() => compileJsonSchema(broken), JsonSchemaCompileError);
    assert.throws(() => compileJsonSchema(broken), JsonSchemaCompileError, "cached as broken");
  });

  it("describes issues on one line, a few at most", () => {
    const issues = Array.from({ length: 7 }, (_, i) => ({ path: `p${i}`, message: "bad" }));
    assert.equal(describeIssues(issues), "p0: bad; p1: bad; p2: bad; p3: bad; p4: bad; and 2 more");
  });
});

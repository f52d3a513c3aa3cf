// JSON Schema to TypeScript type text, by example: the exact text for each shape tool schemas
// use, and what becomes of shapes no type can say.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { convertSchema, schemaToType } from "../src/declarations/index.js";

const string = { type: "string" };

describe("schemaToType", () => {
  it("writes a draft-07 object as MCP servers send it, with doc comments and optional keys", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { path: string, tail: { type: "number", description: "Last N lines" } },
      required: ["path"],
      additionalProperties: false,
    };
    assert.equal(
      schemaToType(schema),
      "{\n  path: string;\n  /** Last N lines */\n  tail?: number;\n}",
    );
  });

  it("keeps a short object without descriptions on one line", () => {
    const schema = {
      type: "object",
      properties: {
        q: string,
        sort: { type: "string", enum: ["comments", "created"] },
        page: { type: "integer", minimum: 1 },
      },
      required: ["q"],
    };
    assert.equal(
      schemaToType(schema),
      '{ q: string; sort?: "comments" | "created"; page?: number }',
    );
  });

  it("writes objects longer than 100 characters one member a line, indented by two", () => {
    const properties = Object.fromEntries(
      ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf"].map((key) => [key, string]),
    );
    const text = schemaToType({
      type: "object",
      properties: { outer: { type: "object", properties } },
    });
    const inner = Object.keys(properties).map((key) => `    ${key}?: string;`);
    assert.equal(text, ["{", "  outer?: {", ...inner, "  };", "}"].join("\n"));
  });

  it("starts continuation lines at the indent it is given", () => {
    const text = schemaToType(
      { type: "object", properties: { a: { ...string, description: "A." } } },
      { indent: "    " },
    );
    assert.equal(text, "{\n      /** A. */\n      a?: string;\n    }");
  });

  it("turns type arrays, const, enum, anyOf and oneOf into unions", () => {
    assert.equal(schemaToType({ type: ["string", "integer", "null"] }), "string | number | null");
    assert.equal(
      schemaToType({ oneOf: [{ const: "a" }, { const: 1 }, { const: true }, { const: null }] }),
      '"a" | 1 | true | null',
    );
    assert.equal(schemaToType({ anyOf: [string, { type: "number" }, string] }), "string | number");
    assert.equal(schemaToType({ enum: [] }), "never");
  });

  it("quotes string literals with JSON.stringify, so no value ends its string early", () => {
    assert.equal(
      schemaToType({ enum: ['say "hi"', "back\\slash", "line\nbreak", 2.5, -1, false, null] }),
      '"say \\"hi\\"" | "back\\\\slash" | "line\\nbreak" | 2.5 | -1 | false | null',
    );
  });

  it("adds null for OpenAPI's nullable", () => {
    const schema = {
      type: "object",
      properties: {
        id: { type: "integer", nullable: true },
        tags: { type: "array", items: string, nullable: true },
      },
    };
    assert.equal(schemaToType(schema), "{ id?: number | null; tags?: string[] | null }");
  });

  it("merges allOf of plain objects, references included, and intersects anything else", () => {
    const merged = {
      $defs: { Base: { type: "object", properties: { id: string }, required: ["id"] } },
      allOf: [{ $ref: "#/$defs/Base" }, { type: "object", properties: { name: string } }],
    };
    assert.equal(schemaToType(merged), "{ id: string; name?: string }");
    const clash = {
      allOf: [
        { type: "object", properties: { a: string } },
        { type: "object", properties: { a: { type: "number" } } },
      ],
    };
    assert.equal(schemaToType(clash), "{ a?: string } & { a?: number }");
    assert.equal(
      schemaToType({ allOf: [string, { anyOf: [{ const: "x" }, { const: "y" }] }] }),
      'string & ("x" | "y")',
    );
  });

  it("ignores branches that only constrain, such as anyOf of required lists", () => {
    const schema = {
      type: "object",
      properties: { a: string, b: string },
      anyOf: [{ required: ["a"] }, { required: ["b"] }],
    };
    assert.equal(schemaToType(schema), "{ a?: string; b?: string }");
  });

  it("resolves local references under $defs, definitions and any JSON pointer", () => {
    const schema = {
      definitions: { Color: { enum: ["red", "green"] } },
      $defs: { "a/b": { type: "boolean" } },
      type: "object",
      properties: {
        color: { $ref: "#/definitions/Color" },
        flag: { $ref: "#/$defs/a~1b" },
        same: { $ref: "#/properties/color" },
        remote: { $ref: "https://example.com/schema.json" },
        missing: { $ref: "#/$defs/Nope" },
      },
    };
    assert.equal(
      schemaToType(schema),
      [
        "{",
        '  color?: "red" | "green";',
        "  flag?: boolean;",
        '  same?: "red" | "green";',
        "  remote?: unknown;",
        "  missing?: unknown;",
        "}",
      ].join("\n"),
    );
  });

  it("applies the keywords beside a $ref too", () => {
    const $defs = { S: string, O: { type: "object", properties: { a: string } } };
    assert.equal(schemaToType({ $ref: "#/$defs/S", description: "Why.", $defs }), "string");
    assert.equal(schemaToType({ $ref: "#/$defs/S", nullable: true, $defs }), "string | null");
    assert.equal(
      schemaToType({ $ref: "#/$defs/O", properties: { b: string }, $defs }),
      "{ a?: string } & { b?: string }",
    );
  });

  it("shows a recursive type once more inside itself, then ends it in unknown", () => {
    const tree = {
      $ref: "#/$defs/Node",
      $defs: {
        Node: {
          type: "object",
          properties: {
            name: string,
            children: { type: "array", items: { $ref: "#/$defs/Node" } },
          },
        },
      },
    };
    assert.equal(
      schemaToType(tree),
      "{ name?: string; children?: Array<{ name?: string; children?: unknown[] }> }",
    );
    assert.equal(
      schemaToType({ type: "object", properties: { next: { $ref: "#" } } }),
      "{ next?: { next?: { next?: unknown } } }",
    );
  });

  it("writes index signatures for additionalProperties and patternProperties", () => {
    assert.equal(
      schemaToType({ type: "object", additionalProperties: { type: "number" } }),
      "Record<string, number>",
    );
    assert.equal(
      schemaToType({ type: "object", properties: { a: string }, additionalProperties: true }),
      "{ a?: string; [key: string]: unknown }",
    );
    // Beside typed properties a typed index goes into an intersection: TypeScript would want
    // every property to fit an index signature in the same literal.
    assert.equal(
      schemaToType({ type: "object", properties: { a: string }, additionalProperties: string }),
      "{ a?: string } & Record<string, string>",
    );
    assert.equal(
      schemaToType({ patternProperties: { "^x-": string, "^n-": { type: "number" } } }),
      "Record<string, string | number>",
    );
    assert.equal(
      schemaToType({ type: "object", properties: { a: string }, additionalProperties: false }),
      "{ a?: string }",
    );
  });

  it("tells an empty object from a free-form one", () => {
    assert.equal(schemaToType({ type: "object", properties: {} }), "{}");
    assert.equal(schemaToType({ type: "object", additionalProperties: false }), "{}");
    assert.equal(schemaToType({ type: "object" }), "Record<string, unknown>");
  });

  it("writes arrays, tuples from prefixItems and from draft-07 items arrays", () => {
    assert.equal(schemaToType({ type: "array", items: string, minItems: 1 }), "string[]");
    assert.equal(schemaToType({ type: "array" }), "unknown[]");
    assert.equal(schemaToType({ items: { type: ["string", "number"] } }), "Array<string | number>");
    assert.equal(
      schemaToType({
        type: "array",
        prefixItems: [string, { type: "boolean" }],
        items: { type: "number" },
      }),
      "[string, boolean, ...number[]]",
    );
    assert.equal(
      schemaToType({ type: "array", items: [string, { properties: { a: string } }] }),
      "[string, { a?: string }]",
    );
  });

  it("quotes keys that are not identifiers", () => {
    const keys = ["a-b", "1x", 'q"uote', "new", "$ok", "line\nbreak"];
    const schema = { type: "object", properties: Object.fromEntries(keys.map((k) => [k, string])) };
    assert.equal(
      schemaToType(schema),
      [
        "{",
        '  "a-b"?: string;',
        '  "1x"?: string;',
        '  "q\\"uote"?: string;',
        "  new?: string;",
        "  $ok?: string;",
        '  "line\\nbreak"?: string;',
        "}",
      ].join("\n"),
    );
  });

  it("leaves validation keywords and unknown keywords out", () => {
    const schema = { type: "string", format: "uri", pattern: "^h", minLength: 1, "x-vendor": {} };
    assert.equal(schemaToType(schema), "string");
  });

  it("says unknown for anything it cannot read, never for false, and never throws", () => {
    const odd: unknown[] = [null, 1, "x", [], true, {}, { type: 5 }, { const: { a: 1 } }];
    for (const schema of odd) assert.equal(schemaToType(schema), "unknown", JSON.stringify(schema));
    assert.equal(schemaToType(false), "never");
    const throwing = Object.defineProperty({}, "type", {
      get() {
        throw new Error("hostile getter");
      },
    });
    assert.deepEqual(convertSchema(throwing), { text: "unknown", truncated: true });
  });

  it("cuts a property description at 300 characters and escapes the end of a comment", () => {
    const text = schemaToType({
      type: "object",
      properties: { a: { ...string, description: `${"word ".repeat(80)}*/ after` } },
    });
    const doc = text.split("\n")[1]!;
    assert.match(doc, /^ {2}\/\*\* word word .*… \*\/$/);
    assert.ok(doc.length <= 300 + 10, `${doc.length} characters`);
    assert.equal(
      schemaToType({ properties: { a: { ...string, description: "ends */ here" } } }),
      "{\n  /** ends *\\/ here */\n  a?: string;\n}",
    );
  });
});

// Remote input schemas are compiled on a tool's first call, not when its server lists it (a
// server with 10,000 tools must not cost seconds of Ajv before anything is callable); a schema
// that cannot be compiled is said once, and its arguments are then only checked to be an object.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { lazyValidator } from "../src/adapt/schema-validator.js";

describe("lazyValidator", () => {
  it("compiles on first use and validates every call after", () => {
    const broken: string[] = [];
    const validate = lazyValidator(
      { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      (error) => broken.push(error),
    );
    assert.deepEqual(validate({ text: "hi" }), { ok: true });
    assert.deepEqual(validate({}), {
      ok: false,
      message: "(arguments): must have required property 'text' (text)",
    });
    assert.deepEqual(validate({ text: 3 }), { ok: false, message: "text: must be string" });
    assert.deepEqual(broken, []);
  });

  it("reads a null for an optional parameter that does not take null as leaving it out", () => {
    const validate = lazyValidator(
      {
        type: "object",
        properties: {
          region: { type: "string" },
          verbose: { type: "boolean" },
          note: { type: ["string", "null"] },
        },
        required: ["region"],
      },
      () => undefined,
    );
    assert.deepEqual(validate({ region: "eu", verbose: null }), {
      ok: true,
      value: { region: "eu" },
    });
    // A null the schema takes is kept as sent; a required parameter's null is still refused.
    assert.deepEqual(validate({ region: "eu", note: null }), { ok: true });
    assert.deepEqual(validate({ region: null }), { ok: false, message: "region: must be string" });
    // Only nulls go: another error still fails the call.
    assert.equal(validate({ region: "eu", verbose: null, note: 3 }).ok, false);
  });

  it("reports a schema that cannot be compiled once, on the first call, and lets objects through", () => {
    const broken: string[] = [];
    const validate = lazyValidator(
      { type: "object", properties: { a: { $ref: "#/$defs/missing" } } },
      (error) => broken.push(error),
    );
    assert.deepEqual(broken, [], "nothing is compiled before a call");
    assert.deepEqual(validate({ a: 1 }), { ok: true });
    assert.deepEqual(validate({ a: "x" }), { ok: true });
    assert.equal(broken.length, 1);
    assert.match(broken[0]!, /missing/);
  });

  it("reports a schema whose keywords have values of the wrong type, in both dialects", () => {
    const malformed: Array<[Record<string, unknown>, RegExp]> = [
      [{ type: "strng" }, /strng/],
      [{ type: "object", required: "text" }, /required/],
      [{ type: "object", properties: 3 }, /properties/],
      [{ type: "object", properties: { n: { minimum: "3" } } }, /minimum/],
      [{ type: "object", additionalProperties: 3 }, /additionalProperties/],
      [{ type: "object", properties: { s: { pattern: "(" } } }, /regular expression/i],
    ];
    for (const dialect of [{}, { $schema: "http://json-schema.org/draft-07/schema#" }]) {
      for (const [schema, said] of malformed) {
        const broken: string[] = [];
        const validate = lazyValidator({ ...dialect, ...schema }, (error) => broken.push(error));
        assert.deepEqual(validate({ text: "x" }), { ok: true }, JSON.stringify(schema));
        assert.equal(broken.length, 1, `${JSON.stringify(schema)} is reported once`);
        assert.match(broken[0]!, said);
      }
    }
  });

  it("tools with the same schema each validate on their own (one compiled validator shared)", () => {
    const schema = () => ({
      type: "object",
      properties: { n: { type: "integer", minimum: 1 } },
      required: ["n"],
    });
    const first = lazyValidator(schema(), () => {});
    const second = lazyValidator(schema(), () => {});
    assert.deepEqual(first({ n: 2 }), { ok: true });
    assert.deepEqual(second({ n: 0 }), { ok: false, message: "n: must be >= 1" });
    assert.deepEqual(first({ n: 0 }), { ok: false, message: "n: must be >= 1" });
  });
});

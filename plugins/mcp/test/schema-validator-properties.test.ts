import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { lazyValidator } from "../src/adapt/schema-validator.js";

/**
 * Property tests of argument validation against a remote tool's schema: random schemas, and
 * for each a value valid by construction and one broken by construction (a wrong type, a
 * missing required field, an unknown field where none is allowed, a string too long, a number
 * too small, a value outside the enum). A valid value is never refused, a broken one never
 * passes, and the refusal says where.
 */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);

type Schema = Record<string, unknown>;
interface Case {
  schema: Schema;
  valid: fc.Arbitrary<unknown>;
  /** Values that break the schema, with the path where they break it. */
  broken: fc.Arbitrary<{ value: unknown; at: string }>;
}

const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/);
const wrongFor = (type: string): fc.Arbitrary<unknown> =>
  fc.constantFrom<unknown>(
    ...[null, true, "text", 42.5, 7, [1], { a: 1 }].filter((v) => !fits(type, v)),
  );

function fits(type: string, value: unknown): boolean {
  if (type === "integer") return Number.isInteger(value);
  if (type === "number") return typeof value === "number";
  if (type === "array") return Array.isArray(value);
  if (type === "object")
    return typeof value === "object" && value !== null && !Array.isArray(value);
  if (type === "null") return value === null;
  return typeof value === type;
}

const leaf: fc.Arbitrary<Case> = fc.oneof(
  fc.integer({ min: 1, max: 20 }).map((maxLength) => ({
    schema: { type: "string", maxLength },
    valid: fc.string({ maxLength }),
    broken: fc.oneof(
      wrongFor("string").map((value) => ({ value, at: "" })),
      fc
        .string({ minLength: maxLength + 1, maxLength: maxLength + 10 })
        .filter((s) => [...s].length > maxLength)
        .map((value) => ({ value, at: "" })),
    ),
  })),
  fc.integer({ min: -100, max: 100 }).map((minimum) => ({
    schema: { type: "integer", minimum },
    valid: fc.integer({ min: minimum, max: minimum + 1000 }),
    broken: fc.oneof(
      wrongFor("integer").map((value) => ({ value, at: "" })),
      fc.integer({ min: minimum - 1000, max: minimum - 1 }).map((value) => ({ value, at: "" })),
    ),
  })),
  fc.constant({
    schema: { type: "boolean" },
    valid: fc.boolean(),
    broken: wrongFor("boolean").map((value) => ({ value, at: "" })),
  }),
  fc
    .uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 1, maxLength: 4 })
    .map((options) => ({
      schema: { enum: options },
      valid: fc.constantFrom(...options),
      broken: fc
        .stringMatching(/^[A-Z]{1,6}$/)
        .map((value) => ({ value: value as unknown, at: "" })),
    })),
);

const nested: fc.Arbitrary<Case> = fc.letrec<{ case: Case }>((tie) => ({
  case: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    tie("case").map((inner) => ({
      schema: { type: "array", items: inner.schema, maxItems: 5 },
      valid: fc.array(inner.valid, { maxLength: 5 }),
      broken: fc.oneof(
        wrongFor("array").map((value) => ({ value, at: "" })),
        fc.tuple(fc.array(inner.valid, { maxLength: 3 }), inner.broken).map(([before, bad]) => ({
          value: [...before, bad.value],
          at: `${before.length}${bad.at ? `.${bad.at}` : ""}`,
        })),
      ),
    })),
    fc
      .uniqueArray(fc.tuple(key, tie("case"), fc.boolean()), {
        minLength: 1,
        maxLength: 4,
        selector: ([name]) => name,
      })
      .chain((fields) => objectCase(fields)),
  ),
})).case;

function objectCase(fields: Array<[string, Case, boolean]>): fc.Arbitrary<Case> {
  const properties = Object.fromEntries(fields.map(([name, field]) => [name, field.schema]));
  const required = fields.filter(([, , needed]) => needed).map(([name]) => name);
  const schema = { type: "object", properties, required, additionalProperties: false };
  const valid = fc.record(Object.fromEntries(fields.map(([name, field]) => [name, field.valid])), {
    requiredKeys: required,
  });
  const brokenField = fc.constantFrom(...fields).chain(([name, field]) =>
    fc.tuple(valid, field.broken).map(([value, bad]) => ({
      value: { ...(value as object), [name]: bad.value },
      at: bad.at ? `${name}.${bad.at}` : name,
    })),
  );
  const broken: fc.Arbitrary<{ value: unknown; at: string }>[] = [
    wrongFor("object").map((value) => ({ value, at: "" })),
    brokenField,
    valid.map((value) => ({ value: { ...(value as object), zz_unknown: 1 }, at: "" })),
  ];
  if (required.length > 0)
    broken.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([value, missing]) => {
        const copy = { ...(value as Record<string, unknown>) };
        delete copy[missing];
        return { value: copy, at: "" };
      }),
    );
  return fc.constant({ schema, valid, broken: fc.oneof(...broken) });
}

/** Tool arguments are always an object: the case sits under one required field. */
const toolCase = nested.map((inner) => ({
  schema: {
    type: "object",
    properties: { arg: inner.schema },
    required: ["arg"],
    additionalProperties: false,
  },
  valid: inner.valid.map((arg) => ({ arg })),
  broken: inner.broken.map(({ value, at }) => ({
    value: { arg: value },
    at: at ? `arg.${at}` : "arg",
  })),
}));

describe("property: arguments against a remote tool's schema", () => {
  it("never refuses a valid value and never lets a broken one through, and says where", () => {
    fc.assert(
      fc.property(
        toolCase.chain((c) => fc.tuple(fc.constant(c.schema), c.valid, c.broken)),
        ([schema, valid, broken]) => {
          const broke: string[] = [];
          const validate = lazyValidator(schema, (error) => broke.push(error));
          const accepted = validate(valid as Record<string, unknown>);
          assert.deepEqual(
            accepted,
            { ok: true },
            `${JSON.stringify(valid)} against ${JSON.stringify(schema)}`,
          );
          const refused = validate(broken.value as Record<string, unknown>);
          assert.equal(
            refused.ok,
            false,
            `${JSON.stringify(broken.value)} passed ${JSON.stringify(schema)}`,
          );
          if (!refused.ok)
            assert.ok(refused.message.startsWith(broken.at.split(".")[0]!), refused.message);
          assert.deepEqual(broke, [], "every drawn schema compiles");
        },
      ),
      { numRuns: RUNS },
    );
  });
});

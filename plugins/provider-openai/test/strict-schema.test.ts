import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { removeAddedNulls, toStrictSchema } from "../src/strict-schema.js";

describe("strict schema projection", () => {
  it("closes every object and makes optional properties required but nullable", () => {
    const original = {
      type: "object",
      properties: {
        city: { type: "string" },
        days: { type: "integer" },
        options: {
          type: "object",
          properties: { units: { type: "string", enum: ["C", "F"] }, hourly: { type: "boolean" } },
          required: ["units"],
        },
      },
      required: ["city"],
    };
    const before = structuredClone(original);
    assert.deepEqual(toStrictSchema(original), {
      type: "object",
      properties: {
        city: { type: "string" },
        days: { type: ["integer", "null"] },
        options: {
          type: ["object", "null"],
          properties: {
            units: { type: "string", enum: ["C", "F"] },
            hourly: { type: ["boolean", "null"] },
          },
          required: ["units", "hourly"],
          additionalProperties: false,
        },
      },
      required: ["city", "days", "options"],
      additionalProperties: false,
    });
    assert.deepEqual(original, before, "the tool's own schema is never modified");
  });

  it("moves value constraints into the description and drops annotations", () => {
    const strict = toStrictSchema({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      title: "Args",
      type: "object",
      properties: {
        name: {
          type: "string",
          description: "Who.",
          minLength: 1,
          maxLength: 20,
          pattern: "^[a-z]+$",
        },
        count: { type: "number", minimum: 0, default: 3 },
      },
      required: ["name", "count"],
      additionalProperties: false,
    });
    assert.deepEqual(strict, {
      type: "object",
      properties: {
        name: {
          type: "string",
          description: 'Who. (minLength: 1, maxLength: 20, pattern: "^[a-z]+$")',
        },
        count: { type: "number", description: "(minimum: 0, default: 3)" },
      },
      required: ["name", "count"],
      additionalProperties: false,
    });
  });

  it("keeps arrays, refs and definitions, turning oneOf into anyOf", () => {
    const strict = toStrictSchema({
      type: "object",
      properties: {
        points: { type: "array", items: { $ref: "#/$defs/point" } },
        shape: { oneOf: [{ type: "string" }, { type: "number" }] },
        origin: { $ref: "#/$defs/point" },
      },
      required: ["points", "shape"],
      $defs: { point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } },
    });
    assert.deepEqual(strict, {
      type: "object",
      properties: {
        points: { type: "array", items: { $ref: "#/$defs/point" } },
        shape: { anyOf: [{ type: "string" }, { type: "number" }] },
        origin: { anyOf: [{ $ref: "#/$defs/point" }, { type: "null" }] },
      },
      required: ["points", "shape", "origin"],
      additionalProperties: false,
      $defs: {
        point: {
          type: "object",
          properties: { x: { type: "number" } },
          required: ["x"],
          additionalProperties: false,
        },
      },
    });
  });

  it("leaves a property that already admits null as it is", () => {
    const strict = toStrictSchema({
      type: "object",
      properties: {
        note: { type: ["string", "null"] },
        tag: { anyOf: [{ type: "string" }, { type: "null" }] },
      },
    });
    assert.deepEqual(strict?.properties, {
      note: { type: ["string", "null"] },
      tag: { anyOf: [{ type: "string" }, { type: "null" }] },
    });
  });

  for (const [why, schema] of [
    [
      "an open map",
      {
        type: "object",
        properties: { meta: { type: "object", additionalProperties: { type: "string" } } },
      },
    ],
    [
      "additionalProperties: true",
      { type: "object", properties: { a: { type: "string" } }, additionalProperties: true },
    ],
    ["an object with no properties", { type: "object" }],
    ["a nested free-form object", { type: "object", properties: { data: { type: "object" } } }],
    ["allOf", { type: "object", properties: { a: { allOf: [{ type: "string" }] } } }],
    [
      "patternProperties",
      { type: "object", properties: {}, patternProperties: { "^x": { type: "string" } } },
    ],
    ["a property of any type", { type: "object", properties: { anything: {} } }],
    [
      "tuple items",
      { type: "object", properties: { pair: { type: "array", items: [{ type: "string" }] } } },
    ],
    ["a non-object root", { type: "string" }],
  ] as const) {
    it(`gives up on ${why}, so the tool is sent non-strict`, () => {
      assert.equal(toStrictSchema(schema as Record<string, unknown>), undefined);
    });
  }
});

describe("removing the nulls strict mode added", () => {
  const schema = {
    type: "object",
    properties: {
      city: { type: "string" },
      units: { type: "string" },
      note: { type: ["string", "null"] },
      options: { type: "object", properties: { hourly: { type: "boolean" } } },
      stops: { type: "array", items: { $ref: "#/$defs/stop" } },
    },
    required: ["city"],
    $defs: {
      stop: {
        type: "object",
        properties: { name: { type: "string" }, minutes: { type: "integer" } },
        required: ["name"],
      },
    },
  };

  it("drops nulls of optional properties, keeps nulls the schema admits", () => {
    const args = {
      city: "Lisbon",
      units: null,
      note: null,
      options: { hourly: null },
      stops: [
        { name: "a", minutes: null },
        { name: "b", minutes: 5 },
      ],
    };
    assert.deepEqual(removeAddedNulls(args, schema), {
      city: "Lisbon",
      note: null,
      options: {},
      stops: [{ name: "a" }, { name: "b", minutes: 5 }],
    });
    assert.equal(args.units, null, "the model's arguments are not modified");
  });

  it("keeps a null in a required property, for the registry to reject", () => {
    assert.deepEqual(removeAddedNulls({ city: null }, schema), { city: null });
  });

  it("leaves values that are not objects alone", () => {
    assert.equal(removeAddedNulls('{"broken', schema), '{"broken');
  });
});

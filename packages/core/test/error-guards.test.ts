import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ConfigError,
  ModelError,
  type ModelErrorCode,
  PluginError,
  PseudoClaudeError,
  SystemError,
  ToolSourceError,
  UsageError,
} from "../src/errors.js";
import { StructuredOutputError } from "../src/output/output-error.js";

/** An error as another copy of this module would make it: same fields, another class. */
function foreignError(fields: { name: string; fault: string; code: string }): Error {
  return Object.assign(new Error("from another copy"), fields);
}

describe("error guards", () => {
  it("recognise each fault class, and nothing of another fault", () => {
    const errors = [
      new ConfigError("config_invalid", "bad"),
      new UsageError("agent_closed", "closed"),
      new ModelError("timeout", "slow"),
      new PluginError("invalid_plugin", "bad plugin"),
      new ToolSourceError<"gone">("gone", "gone"),
      new SystemError<"broken">("broken", "broken"),
    ];
    const guards = [
      ConfigError.is,
      UsageError.is,
      ModelError.is,
      PluginError.is,
      ToolSourceError.is,
      SystemError.is,
    ];
    const table = guards.map((guard) => errors.map((error) => guard(error)));
    assert.deepEqual(
      table,
      guards.map((_, row) => errors.map((_, column) => row === column)),
    );
    for (const guard of guards) {
      for (const value of [new Error("plain"), "text", undefined, { code: "timeout" }])
        assert.equal(guard(value), false);
    }
  });

  it("count a subclass as its fault class, and a subclass only as itself", () => {
    const structured = new StructuredOutputError("output_missing", "no answer", {
      raw: "",
      issues: [],
    });
    assert.equal(ModelError.is(structured), true);
    assert.equal(StructuredOutputError.is(structured), true);
    assert.equal(StructuredOutputError.is(new ModelError("timeout", "slow")), false);
    assert.equal(PseudoClaudeError.is(structured), true);
  });

  it("recognise an error made by another copy of the module, by its fault and name", () => {
    const foreign = foreignError({ name: "ModelError", fault: "model", code: "rate_limited" });
    assert.equal(foreign instanceof ModelError, false);
    assert.equal(ModelError.is(foreign), true);
    assert.equal(ConfigError.is(foreign), false);
    const structured = foreignError({
      name: "StructuredOutputError",
      fault: "model",
      code: "output_invalid",
    });
    assert.equal(StructuredOutputError.is(structured), true);
    assert.equal(StructuredOutputError.is(foreign), false);
  });

  it("type `code` with the class's codes (an instanceof of a generic class leaves it any)", () => {
    const caught: unknown = new ModelError("rate_limited", "slow down");
    assert.ok(ModelError.is(caught));
    const code: ModelErrorCode = caught.code;
    // @ts-expect-error: not a model error code; compiles only while `code` is a typed union.
    const misspelt = caught.code === "rate_limted";
    assert.equal(misspelt, false);
    assert.equal(code, "rate_limited");
  });
});

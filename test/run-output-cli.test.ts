// `pseudoclaude run PROMPT --output-schema FILE.json`, the real CLI with a scripted model: the
// validated value under `output` in --json, a typed failure with the raw answer and its
// issues, and a schema file that cannot be used refused before anything starts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { parseJson, runCli } from "./support/cli.js";

const SCHEMA = {
  title: "weather",
  type: "object",
  properties: { city: { type: "string" }, celsius: { type: "number" } },
  required: ["city", "celsius"],
  additionalProperties: false,
};

interface RunJson {
  text: string;
  stop_reason: string;
  output?: unknown;
  error?: { code: string; message: string; raw?: string; issues?: unknown[] };
}

async function withScript(
  turns: unknown[],
  body: (workspace: TempWorkspace) => Promise<void>,
): Promise<void> {
  const workspace = await createTempWorkspace("pc-output-");
  try {
    await workspace.write("script.json", JSON.stringify(turns));
    await workspace.write("weather.schema.json", JSON.stringify(SCHEMA));
    await body(workspace);
  } finally {
    await workspace.cleanup();
  }
}

const run = (workspace: TempWorkspace, schema = "weather.schema.json") =>
  runCli(workspace, [
    "run",
    "Weather in Lisbon?",
    "--script",
    "script.json",
    "--output-schema",
    schema,
    "--json",
  ]);

describe("pseudoclaude run --output-schema", () => {
  it("prints the validated value under output", async () => {
    await withScript([{ output: { city: "Lisbon", celsius: 21 } }], async (workspace) => {
      const result = await run(workspace);
      assert.equal(result.code, 0, result.stderr);
      const json = parseJson<RunJson>(result);
      assert.deepEqual(json.output, { city: "Lisbon", celsius: 21 });
      assert.equal(json.stop_reason, "end_turn");
    });
  });

  it("repairs once, then fails with exit 1, the raw answer and the issues", async () => {
    await withScript(
      [{ output: { city: "Lisbon" } }, { output: { city: "Lisbon", celsius: "21" } }],
      async (workspace) => {
        const result = await run(workspace);
        assert.equal(result.code, 1);
        const json = parseJson<RunJson>(result);
        assert.equal(json.stop_reason, "error");
        assert.equal(json.output, undefined, "no unvalidated object is printed as output");
        assert.equal(json.error?.code, "output_invalid");
        assert.equal(json.error?.raw, '{"city":"Lisbon","celsius":"21"}');
        assert.deepEqual(json.error?.issues, [{ path: "celsius", message: "must be number" }]);
        assert.match(result.stderr, /does not match the output schema "weather"/);
      },
    );
  });

  it("refuses a schema file it cannot read or parse, naming it, before anything runs", async () => {
    await withScript([{ text: "never played" }], async (workspace) => {
      await workspace.write("broken.json", "{ not json");
      const missing = await run(workspace, "nope.json");
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /--output-schema .*nope\.json cannot be read \(ENOENT\)/);
      const broken = await run(workspace, "broken.json");
      assert.equal(broken.code, 2);
      assert.match(broken.stderr, /--output-schema .*broken\.json is not JSON/);
      assert.equal(parseJson<RunJson>(broken).error?.code, "invalid_output_schema");
    });
  });
});

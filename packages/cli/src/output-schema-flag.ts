import { readFileSync } from "node:fs";
import path from "node:path";
import { type JsonSchemaOutput, jsonSchemaOutput } from "@pseudoclaude/core";
import { isPlainObject } from "@pseudoclaude/core/plugin";
import { CliUsageError } from "./cli-errors.js";

/**
 * `--output-schema FILE.json`: a JSON Schema the run's final answer must match, read before
 * anything starts so a bad file costs nothing. Its `title` names it on the wire when it can.
 */
export function readOutputSchemaFlag(cwd: string, file: string): JsonSchemaOutput {
  const where = path.resolve(cwd, file);
  let text: string;
  try {
    text = readFileSync(where, "utf8");
  } catch (error) {
    throw invalid(where, `cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw invalid(where, `is not JSON (${(error as Error).message})`);
  }
  if (!isPlainObject(schema)) throw invalid(where, "is not a JSON Schema object");
  return jsonSchemaOutput(schema);
}

function invalid(file: string, why: string): CliUsageError {
  return new CliUsageError("invalid_output_schema", `--output-schema ${file} ${why}.`, {
    details: { flag: "output-schema", file },
  });
}

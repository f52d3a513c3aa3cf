import type { JsonSchemaOutput } from "../contracts/output-format.js";
import type { JsonSchema } from "../contracts/tool-definition.js";

/** `run(prompt, { output: jsonSchemaOutput<Invoice>(schema) })`: a JSON Schema, typed. */
export function jsonSchemaOutput<T = unknown>(
  jsonSchema: JsonSchema,
  options: { name?: string; description?: string } = {},
): JsonSchemaOutput<T> {
  return { jsonSchema, ...options };
}

export type {
  JsonSchemaOutput,
  OutputFormat,
  OutputIssue,
  OutputOf,
  OutputSchema,
} from "../contracts/output-format.js";

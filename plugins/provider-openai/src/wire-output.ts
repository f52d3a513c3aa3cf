import type { OutputFormat } from "@pseudoclaude/core/provider";
import { removeAddedNulls, toStrictSchema } from "./strict-schema.js";

/** An output format as both OpenAI APIs take a JSON-schema response format. */
export interface WireOutput {
  name: string;
  schema: Record<string, unknown>;
  strict: boolean;
  description?: string;
}

/**
 * The output schema in strict mode (constrained decoding: the answer cannot miss it) where
 * strict mode can express it, as sent before otherwise; `strict: false` in the settings sends
 * every schema as it is.
 */
export function toWireOutput(format: OutputFormat, strict: boolean): WireOutput {
  const strictSchema = strict ? toStrictSchema(format.schema) : undefined;
  return {
    name: format.name,
    schema: strictSchema ?? format.schema,
    strict: strictSchema !== undefined,
    ...(format.description ? { description: format.description } : {}),
  };
}

/** The answer as the original schema reads it: nulls strict mode added are dropped again. */
export function readOutputValue(value: unknown, format: OutputFormat, strict: boolean): unknown {
  if (!strict || typeof value !== "object" || value === null) return value;
  return toStrictSchema(format.schema) ? removeAddedNulls(value, format.schema) : value;
}

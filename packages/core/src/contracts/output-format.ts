import type { z } from "zod";
import type { JsonSchema } from "./tool-definition.js";

/**
 * A run's output described by a plain JSON Schema (for schemas that come from a file or
 * another language). `T` is what the caller promises the schema describes; it is checked at
 * run time against the schema, never assumed.
 */
export interface JsonSchemaOutput<T = unknown> {
  readonly jsonSchema: JsonSchema;
  /**
   * The name the model's API sees (`[A-Za-z0-9_-]`, at most 64). Default: the schema's
   * `title` when it is such a name, else `output`.
   */
  readonly name?: string;
  readonly description?: string;
  /** Carries `T` for the type checker only. */
  readonly __output?: T;
}

/** What `run(prompt, { output })` takes: a zod schema, or a JSON Schema with its type. */
export type OutputSchema<T = unknown> = z.ZodType<T> | JsonSchemaOutput<T>;

/** The value type an output schema describes. */
export type OutputOf<S> =
  S extends z.ZodType<infer T> ? T : S extends JsonSchemaOutput<infer T> ? T : unknown;

/** What a provider is asked for: the final answer as JSON matching `schema`. */
export interface OutputFormat {
  name: string;
  schema: JsonSchema;
  description?: string;
}

/** One way the final answer missed the schema: where (`items.0.price`, `(answer)`) and why. */
export interface OutputIssue {
  path: string;
  message: string;
}

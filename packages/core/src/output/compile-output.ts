import type { z } from "zod";
import { loadZod } from "../config/zod-schema.js";
import type { JsonSchema } from "../contracts/tool-definition.js";
import { UsageError } from "../errors.js";
import { compileJsonSchema } from "../schema/json-schema-validator.js";
import { isPlainObject } from "../util/plain-object.js";
import type { JsonSchemaOutput, OutputFormat, OutputIssue, OutputSchema } from "./output-schema.js";

/** An output schema ready for a run: what the provider is asked for, and the check of an answer. */
export interface CompiledOutput<T> {
  readonly format: OutputFormat;
  /**
   * Parse the final answer's text as JSON, pass it through `normalize` (the provider's
   * `outputValue`), and validate it.
   */
  check(
    text: string,
    normalize?: (value: unknown) => unknown,
  ): { ok: true; value: T } | { ok: false; issues: OutputIssue[] };
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Compile `spec` once per run. A zod schema gives its JSON Schema (`z.toJSONSchema`, what the
 * model must write) and validates with zod itself, so transforms and defaults apply; a JSON
 * Schema is validated with Ajv (2020-12, or draft-07 when it says so), loaded only then.
 */
export async function compileOutput<T>(spec: OutputSchema<T>): Promise<CompiledOutput<T>> {
  if (isZodSchema(spec)) {
    const { toJSONSchema } = await loadZod();
    const schema = toJSONSchema(spec, { io: "input", unrepresentable: "any" }) as JsonSchema;
    const { $schema: _dialect, ...plain } = schema;
    const format = outputFormat(plain, titleName(plain), undefined);
    return {
      format,
      check: (text, normalize) =>
        parseAnswer(text, normalize, (value) => {
          const parsed = spec.safeParse(value);
          return parsed.success
            ? { ok: true, value: parsed.data as T }
            : { ok: false, issues: parsed.error.issues.map(zodIssue) };
        }),
    };
  }
  if (!isPlainObject(spec) || !isPlainObject((spec as JsonSchemaOutput).jsonSchema))
    throw new UsageError(
      "output_schema_invalid",
      "`output` must be a zod schema or { jsonSchema: {...} } (see jsonSchemaOutput).",
    );
  const { jsonSchema, name, description } = spec as JsonSchemaOutput<T>;
  if (name !== undefined && !NAME.test(name))
    throw new UsageError(
      "output_schema_invalid",
      `The output name "${name}" must be 1 to 64 letters, digits, "_" or "-".`,
    );
  const validate = ajvValidator(jsonSchema);
  return {
    format: outputFormat(jsonSchema, name ?? titleName(jsonSchema), description),
    check: (text, normalize) =>
      parseAnswer(text, normalize, (value) => {
        const issues = validate(value);
        return issues.length === 0 ? { ok: true, value: value as T } : { ok: false, issues };
      }),
  };
}

function outputFormat(
  schema: JsonSchema,
  name: string | undefined,
  description: string | undefined,
): OutputFormat {
  const { $schema: _dialect, ...plain } = schema;
  const format: OutputFormat = { name: name ?? "output", schema: plain };
  const text = description ?? (typeof plain.description === "string" ? plain.description : "");
  if (text) format.description = text;
  return format;
}

/** A schema's `title` names it on the wire when it is a name the APIs take. */
function titleName(schema: JsonSchema): string | undefined {
  const title = schema.title;
  return typeof title === "string" && NAME.test(title) ? title : undefined;
}

function isZodSchema(spec: unknown): spec is z.ZodType {
  // `_zod` marks every zod 4 schema, from this copy of zod or the caller's.
  return (
    typeof spec === "object" &&
    spec !== null &&
    "_zod" in spec &&
    typeof (spec as z.ZodType).safeParse === "function"
  );
}

/**
 * The answer is JSON, perhaps in a Markdown fence (models add one even when told not to);
 * anything else is an issue at `(answer)`.
 */
function parseAnswer<T>(
  text: string,
  normalize: ((value: unknown) => unknown) | undefined,
  validate: (value: unknown) => { ok: true; value: T } | { ok: false; issues: OutputIssue[] },
): { ok: true; value: T } | { ok: false; issues: OutputIssue[] } {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/i.exec(trimmed);
  const body = fenced?.[1] ?? trimmed;
  if (body === "")
    return {
      ok: false,
      issues: [{ path: "(answer)", message: "is empty; a JSON value was expected" }],
    };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return {
      ok: false,
      issues: [{ path: "(answer)", message: `is not JSON (${(error as Error).message})` }],
    };
  }
  return validate(normalize ? normalize(value) : value);
}

function zodIssue(issue: z.core.$ZodIssue): OutputIssue {
  return { path: pathText(issue.path), message: issue.message };
}

function pathText(path: readonly PropertyKey[]): string {
  return path.length === 0 ? "(answer)" : path.map(String).join(".");
}

type Validate = (value: unknown) => OutputIssue[];

function ajvValidator(schema: JsonSchema): Validate {
  try {
    const compiled = compileJsonSchema(schema, { allErrors: true, root: "(answer)" });
    return (value) => [...compiled.issues(value)];
  } catch (error) {
    throw new UsageError(
      "output_schema_invalid",
      `The output JSON Schema does not compile: ${(error as Error).message}`,
    );
  }
}

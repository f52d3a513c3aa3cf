import { createRequire } from "node:module";
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { JsonSchema } from "../contracts/tool-definition.js";

// Ajv loads on the first compile, not with the kernel: most runs compile no JSON Schema, and
// loading it costs ~50 ms.
const require = createRequire(import.meta.url);

/** One way a value breaks a schema: where (dotted, or the root's name) and what. */
export interface SchemaIssue {
  path: string;
  message: string;
}

/** A compiled schema: the issues of a value, none when it is valid. */
export interface CompiledJsonSchema {
  issues(value: unknown): readonly SchemaIssue[];
}

/** The answer for a valid value, shared: validation runs on every tool call. */
const NONE: readonly SchemaIssue[] = Object.freeze([]);

export interface CompileJsonSchemaOptions {
  /** Every issue (structured output shows them all to the model), or the first (faster). */
  allErrors?: boolean | undefined;
  /** How the value itself is named in an issue's path: "(arguments)", "(answer)". */
  root?: string | undefined;
}

/** A schema that cannot be compiled: a keyword of the wrong type, an unresolvable `$ref`. */
export class JsonSchemaCompileError extends Error {
  override readonly name = "JsonSchemaCompileError";
}

/**
 * The engines skip Ajv's check of a schema against its dialect's meta-schema: compiling the
 * 2020-12 meta-schema (its `$dynamicRef`s) made a process's first validation ~100 ms slower,
 * measured. Without that check they need no meta-schemas at all (`meta: false`): adding them
 * was a fifth of the first tool call after connecting (5 of 24 ms, profiled). Ajv still refuses, while compiling, a keyword whose value has the wrong type, an
 * unresolvable `$ref` and a bad `pattern`. Formats are not checked (no format is required of a
 * validator by the spec, and a server's unknown format must not fail a call). The generated code
 * is not put through Ajv's optimizing pass (`code.optimize`): that pass was half of compiling a
 * tool's schema (~2.7 against ~1.4 ms, measured over 200 schemas) and what it folds away V8
 * folds too: the validators ran at the same speed either way (20-60 ns a small object).
 */
const ENGINE_OPTIONS = {
  strict: false,
  validateFormats: false,
  validateSchema: false,
  meta: false,
  code: { optimize: false },
} as const;

const engines = new Map<string, Ajv | Ajv2020>();

/** Compiled validators by dialect, mode and schema text, oldest first; bounded like any cache. */
const compiled = new Map<string, ValidateFunction | JsonSchemaCompileError>();
const CACHE_LIMIT = 2_000;

/**
 * The one JSON Schema compiler of the kernel and its plugins (structured output, MCP
 * arguments, MCP results). The dialect is 2020-12 (MCP's default and JSON Schema's current
 * one) unless the schema declares draft-07 or older, which draft-07 rules read; a `$schema`
 * neither engine knows is left out rather than failing the compile. Schemas with the same text
 * share one compiled validator. Throws JsonSchemaCompileError for a schema that cannot compile.
 */
export function compileJsonSchema(
  schema: JsonSchema,
  options: CompileJsonSchemaOptions = {},
): CompiledJsonSchema {
  const dialect = dialectOf(schema);
  const allErrors = options.allErrors === true;
  const key = `${dialect}:${allErrors ? "all" : "first"}:${JSON.stringify(schema)}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = compile(schema, dialect, allErrors);
    if (compiled.size >= CACHE_LIMIT) compiled.delete(compiled.keys().next().value as string);
    compiled.set(key, validate);
  }
  if (validate instanceof JsonSchemaCompileError) throw validate;
  const check = validate;
  const root = options.root ?? "(value)";
  return {
    issues: (value) => (check(value) ? NONE : (check.errors ?? []).map((e) => issueOf(e, root))),
  };
}

/** A schema of the shape most tool inputs have, compiled to warm the compiler up. */
const WARM_UP_SCHEMA: JsonSchema = {
  type: "object",
  properties: { text: { type: "string", minLength: 1 }, count: { type: "integer" } },
  required: ["text"],
  additionalProperties: false,
};

let warming = false;

/**
 * Load the 2020-12 engine and compile one small schema when the event loop is next idle, once
 * per process. A source calls it while it waits for its tools (an MCP server booting): the
 * first tool call then compiles its validator on a warm compiler instead of loading Ajv and
 * running its code generator cold (24 ms of the first call after connecting, profiled).
 */
export function warmJsonSchemaCompiler(): void {
  if (warming) return;
  warming = true;
  setImmediate(() => {
    try {
      compileJsonSchema(WARM_UP_SCHEMA);
    } catch {
      // A warm-up only: the first real compile reports any failure.
    }
  }).unref();
}

/** The issues as one line a person reads: `path: message; path: message`. */
export function describeIssues(issues: readonly SchemaIssue[], limit = 5): string {
  const shown = issues.slice(0, limit).map((issue) => `${issue.path}: ${issue.message}`);
  const more = issues.length > limit ? `; and ${issues.length - limit} more` : "";
  return `${shown.join("; ")}${more}`;
}

function dialectOf(schema: JsonSchema): "07" | "2020" {
  const declared = typeof schema.$schema === "string" ? schema.$schema : "";
  return /draft-0[4-7]/.test(declared) ? "07" : "2020";
}

function compile(
  schema: JsonSchema,
  dialect: "07" | "2020",
  allErrors: boolean,
): ValidateFunction | JsonSchemaCompileError {
  const copy = { ...schema };
  if (typeof copy.$schema === "string" && !/2020-12|draft-07/.test(copy.$schema))
    delete copy.$schema;
  try {
    return engineFor(dialect, allErrors).compile(copy);
  } catch (error) {
    return new JsonSchemaCompileError(error instanceof Error ? error.message : String(error));
  }
}

function engineFor(dialect: "07" | "2020", allErrors: boolean): Ajv | Ajv2020 {
  const key = `${dialect}:${allErrors}`;
  let engine = engines.get(key);
  if (!engine) {
    if (dialect === "07") {
      const { Ajv: Draft07 } = require("ajv") as typeof import("ajv");
      engine = new Draft07({ ...ENGINE_OPTIONS, allErrors });
    } else {
      const { Ajv2020: Draft2020 } =
        require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
      engine = new Draft2020({ ...ENGINE_OPTIONS, allErrors });
    }
    engines.set(key, engine);
  }
  return engine;
}

function issueOf(error: ErrorObject, root: string): SchemaIssue {
  const path = error.instancePath
    ? error.instancePath
        .slice(1)
        .split("/")
        .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
        .join(".")
    : root;
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  const extra =
    error.keyword === "required"
      ? ` (${params.missingProperty})`
      : error.keyword === "additionalProperties"
        ? ` (${params.additionalProperty})`
        : "";
  return { path, message: `${error.message ?? "is invalid"}${extra}` };
}

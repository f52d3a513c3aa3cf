import { createRequire } from "node:module";
import type { ArgumentValidation } from "@pseudoclaude/core/plugin";
import type { Ajv, ValidateFunction } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";

// Ajv is loaded on the first compile, not when the plugin is imported: most agents call few of
// the tools they list, and a command that calls none should not pay its ~50 ms of loading.
const require = createRequire(import.meta.url);

/**
 * Local argument validation against a remote tool's input schema. MCP's default dialect is
 * JSON Schema 2020-12; schemas that declare draft-07 (or older) are compiled with the draft-07
 * engine. Compiling is the expensive part (about 1-2 ms a schema): a server with 10,000 tools
 * would spend seconds on tools nobody calls, so a tool's validator is compiled on its first
 * call, and tools with the same schema share one compiled validator.
 */
let draft2020: Ajv2020 | undefined;
let draft07: Ajv | undefined;

function dialectOf(schema: Record<string, unknown>): "07" | "2020" {
  const declared = typeof schema.$schema === "string" ? schema.$schema : "";
  return /draft-0[4-7]/.test(declared) ? "07" : "2020";
}

/**
 * The engines skip Ajv's check of a schema against its dialect's meta-schema: compiling the
 * 2020-12 meta-schema (its `$dynamicRef`s) for that check made the process's first tool call
 * ~100 ms slower, measured. Ajv still refuses, while compiling, a keyword whose value has the
 * wrong type (`type: "strng"`, `required: "x"`, `properties: 3`), an unresolvable `$ref` and a
 * bad `pattern`: such a schema is reported as before (tested).
 */
const ENGINE_OPTIONS = {
  strict: false,
  allErrors: false,
  validateFormats: false,
  validateSchema: false,
} as const;

function engineFor(schema: Record<string, unknown>): Ajv | Ajv2020 {
  if (dialectOf(schema) === "07") {
    const { Ajv: Draft07 } = require("ajv") as typeof import("ajv");
    draft07 ??= new Draft07(ENGINE_OPTIONS);
    return draft07;
  }
  const { Ajv2020: Draft2020 } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  draft2020 ??= new Draft2020(ENGINE_OPTIONS);
  return draft2020;
}

export type CompiledValidator = (args: Record<string, unknown>) => ArgumentValidation;

/** Compiled validators by dialect and schema text, oldest first; bounded like any cache. */
const compiledBySchema = new Map<string, { validate?: CompiledValidator; error?: string }>();
const CACHE_LIMIT = 2_000;

/**
 * A validator that compiles `schema` on its first use (then reuses it). A schema that cannot
 * be compiled is reported once through `onBroken`, and its tool's arguments are only checked
 * to be an object, as before a schema could be compiled at all.
 */
export function lazyValidator(
  schema: Record<string, unknown>,
  onBroken: (error: string) => void,
): CompiledValidator {
  let compiled: CompiledValidator | undefined;
  return (args) => {
    if (!compiled) {
      const key = `${dialectOf(schema)}:${JSON.stringify(schema)}`;
      let entry = compiledBySchema.get(key);
      if (!entry) {
        entry = compileValidator(schema);
        if (compiledBySchema.size >= CACHE_LIMIT)
          compiledBySchema.delete(compiledBySchema.keys().next().value as string);
        compiledBySchema.set(key, entry);
      }
      if (entry.error !== undefined) onBroken(entry.error);
      compiled = entry.validate ?? (() => ({ ok: true }));
    }
    return compiled(args);
  };
}

/** Compile; `undefined` with an error message when the schema itself is broken. */
export function compileValidator(schema: Record<string, unknown>): {
  validate?: CompiledValidator;
  error?: string;
} {
  let compiled: ValidateFunction;
  try {
    const copy = { ...schema };
    // Draft-04/06 ids are not understood by either engine; the dialect was picked above.
    if (typeof copy.$schema === "string" && !/2020-12|draft-07/.test(copy.$schema))
      delete copy.$schema;
    compiled = engineFor(schema).compile(copy);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const optional = optionalProperties(schema);
  return {
    validate(args) {
      if (compiled(args)) return { ok: true };
      // A model in a strict mode sends null for an optional parameter it leaves out: where the
      // schema does not take that null, it means "not given" (and no Mcp-Param header goes out).
      const given = withoutOptionalNulls(args, optional);
      if (given !== args && compiled(given)) return { ok: true, value: given };
      const first = compiled.errors?.[0];
      if (!first) return { ok: false, message: "does not match the input schema" };
      const at = first.instancePath
        ? first.instancePath.slice(1).replace(/\//g, ".")
        : "(arguments)";
      const extra =
        first.keyword === "required"
          ? ` (${String((first.params as { missingProperty?: string }).missingProperty)})`
          : first.keyword === "additionalProperties"
            ? ` (${String((first.params as { additionalProperty?: string }).additionalProperty)})`
            : "";
      return { ok: false, message: `${at}: ${first.message ?? "is invalid"}${extra}` };
    },
  };
}

/** Top-level properties the schema declares and does not require. */
function optionalProperties(schema: Record<string, unknown>): Set<string> {
  const properties = schema.properties;
  if (properties === null || typeof properties !== "object") return new Set();
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return new Set(Object.keys(properties).filter((name) => !required.has(name)));
}

/** `args` without its null optional properties; the same object when there are none. */
function withoutOptionalNulls(
  args: Record<string, unknown>,
  optional: Set<string>,
): Record<string, unknown> {
  const nulls = Object.keys(args).filter((key) => args[key] === null && optional.has(key));
  if (nulls.length === 0) return args;
  const given = { ...args };
  for (const key of nulls) delete given[key];
  return given;
}

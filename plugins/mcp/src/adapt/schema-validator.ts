import {
  type ArgumentValidation,
  compileJsonSchema,
  type JsonSchema,
} from "@pseudoclaude/core/plugin";

/**
 * Local argument validation against a remote tool's input schema, with the kernel's one JSON
 * Schema compiler (MCP's default dialect is 2020-12; draft-07 when a schema declares it).
 * Compiling is the expensive part (about 1-2 ms a schema): a server with 10,000 tools would
 * spend seconds on tools nobody calls, so a tool's validator is compiled on its first call, and
 * tools with the same schema share one compiled validator.
 */
export type CompiledValidator = (args: Record<string, unknown>) => ArgumentValidation;

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
      const entry = compileValidator(schema);
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
  let compiled: ReturnType<typeof compileJsonSchema>;
  try {
    compiled = compileJsonSchema(schema as JsonSchema, { root: "(arguments)" });
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const optional = optionalProperties(schema);
  return {
    validate(args) {
      const issues = compiled.issues(args);
      if (issues.length === 0) return { ok: true };
      // A model in a strict mode sends null for an optional parameter it leaves out: where the
      // schema does not take that null, it means "not given" (and no Mcp-Param header goes out).
      const given = withoutOptionalNulls(args, optional);
      if (given !== args && compiled.issues(given).length === 0) return { ok: true, value: given };
      const first = issues[0]!;
      return { ok: false, message: `${first.path}: ${first.message}` };
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

import type { z } from "zod";
import type { Diagnostic } from "../contracts/diagnostic.js";
import { isPlainObject } from "../util/plain-object.js";
import type { SectionEntry } from "./config-layer.js";
import { didYouMean } from "./suggest-key.js";

export type SectionValidation<T> =
  | { ok: true; value: T }
  | { ok: false; diagnostics: Diagnostic[] };

/**
 * How to parse config with zod (`schema.safeParse(value, CONFIG_PARSE)`). Config is parsed once
 * per entry, so zod's generated fast path for objects (a `new Function`
 * per object schema, which V8 then compiles like any hot code) is all cost here: a process
 * that connected 30 servers held ~27 KB more machine code with it (measured; the parser made
 * for a server entry alone was estimated at 44 KB of baseline code). Tool arguments, parsed
 * on every call, keep it.
 */
export const CONFIG_PARSE = { jitless: true } as const;

/**
 * Validate one layer's value (or a part of it) with a zod schema. Every issue becomes a
 * diagnostic pointing at the file, line and column of the offending value.
 */
export function validateSection<T>(
  schema: z.ZodType<T>,
  entry: SectionEntry,
  options: {
    /** Path of the validated value inside the section (e.g. `["context7"]` for one server). */
    path?: ReadonlyArray<string | number>;
    value?: unknown;
    source?: string;
    item?: string;
    sectionKey?: string;
  } = {},
): SectionValidation<T> {
  const base = options.path ?? [];
  const value = options.value === undefined ? entry.value : options.value;
  const parsed = schema.safeParse(value, CONFIG_PARSE);
  if (parsed.success) return { ok: true, value: parsed.data };
  const diagnostics: Diagnostic[] = parsed.error.issues.map((issue) => {
    const issuePath = [
      ...base,
      ...issue.path.map((part) => (typeof part === "symbol" ? String(part) : part)),
    ];
    const position = entry.locate(issuePath);
    const where = [options.sectionKey, ...issuePath].filter((part) => part !== undefined).join(".");
    const diagnostic: Diagnostic = {
      stage: "config",
      severity: "error",
      code: "config_invalid",
      layer: entry.layer,
      file: position.file,
      message: `${where || "(root)"}: ${issue.message}`,
    };
    if (position.line !== undefined) diagnostic.line = position.line;
    if (position.column !== undefined) diagnostic.column = position.column;
    if (options.source) diagnostic.source = options.source;
    if (options.item) diagnostic.item = options.item;
    return diagnostic;
  });
  return { ok: false, diagnostics };
}

/** The valid keys {@link validateSectionFields} read from one layer, typed by their schemas. */
export type SectionFields<Schemas extends Record<string, z.ZodType>> = {
  [K in keyof Schemas]?: z.infer<Schemas[K]>;
};

/**
 * Validate a mapping section key by key, with one schema per key: a bad or unknown key is
 * reported at its line and skipped while the layer's other keys still apply. A value that is
 * not a mapping skips the layer's whole section; an empty section (`key:` alone) is no keys.
 * `onField` sees each valid key in file order, so what a caller reports about a value lands
 * between the diagnostics of the keys around it.
 *
 * With `failClosed` (a section that can restrict: permissions, hooks, builtin tools) every
 * problem is a blocking error: a misspelt `deny` must stop the run, never drop the rules.
 */
export function validateSectionFields<Schemas extends Record<string, z.ZodType>>(
  entry: SectionEntry,
  schemas: Schemas,
  options: {
    source: string;
    sectionKey: string;
    report(diagnostic: Diagnostic): void;
    onField?(key: keyof Schemas & string, value: unknown): void;
    failClosed?: boolean;
  },
): SectionFields<Schemas> {
  const values: SectionFields<Schemas> = {};
  const { source, sectionKey } = options;
  const failClosed = options.failClosed ?? false;
  const report = failClosed
    ? (diagnostic: Diagnostic) => options.report(blockingDiagnostic(diagnostic))
    : options.report;
  if (entry.value === null || entry.value === undefined) return values;
  if (!isPlainObject(entry.value)) {
    report({
      stage: "config",
      severity: "error",
      code: "config_invalid",
      source,
      layer: entry.layer,
      ...entry.locate([]),
      message: failClosed
        ? `${sectionKey} must be a mapping (key: value).`
        : `${sectionKey} must be a mapping (key: value); this layer's section is ignored.`,
    });
    return values;
  }
  for (const [key, value] of Object.entries(entry.value)) {
    const schema = Object.hasOwn(schemas, key) ? schemas[key] : undefined;
    if (!schema) {
      const known = Object.keys(schemas);
      report({
        stage: "config",
        severity: "warning",
        code: "config_unknown_key",
        source,
        layer: entry.layer,
        item: `${sectionKey}.${key}`,
        ...(entry.locateKey ?? entry.locate)([key]),
        message: `${sectionKey}.${key}: unknown key${didYouMean(key, known)}${failClosed ? "" : ", ignored"} (known: ${known.join(", ")}).`,
      });
      continue;
    }
    const checked = validateSection(schema, entry, { path: [key], value, source, sectionKey });
    if (!checked.ok) {
      for (const diagnostic of checked.diagnostics) report(diagnostic);
      continue;
    }
    (values as Record<string, unknown>)[key] = checked.value;
    options.onField?.(key, checked.value);
  }
  return values;
}

/**
 * The diagnostic as an error that stops a run: said in the message too, so the person reading
 * it knows nothing ran and what to do.
 */
export function blockingDiagnostic(diagnostic: Diagnostic): Diagnostic {
  if (diagnostic.blocking) return diagnostic;
  return {
    ...diagnostic,
    severity: "error",
    blocking: true,
    message: `${diagnostic.message.replace(/\.?$/, ".")} This section can restrict what the agent does, so nothing runs until it is fixed.`,
  };
}

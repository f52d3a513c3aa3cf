import type { z } from "zod";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { SectionEntry } from "./config-layer.js";

export type SectionValidation<T> =
  | { ok: true; value: T }
  | { ok: false; diagnostics: Diagnostic[] };

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
  const parsed = schema.safeParse(value);
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

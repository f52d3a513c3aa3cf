/** One property of an elicitation's `requestedSchema` (MCP allows only flat primitives). */
export interface FieldSchema {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  oneOf?: Array<{ const?: unknown; title?: string }>;
  items?: { enum?: unknown[]; anyOf?: Array<{ const?: unknown }> };
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

/** A typed answer. */
export type FieldValue = string | number | boolean | string[];

/** The parsed value, or why the typed text does not fit the field. */
export type FieldParse = { ok: true; value: FieldValue } | { ok: false; message: string };

/** The prompt label: title or name, type, the choices and the default. */
export function fieldLabel(name: string, field: FieldSchema, required: boolean): string {
  const choices = allowedValues(field);
  const parts = [field.title ?? name];
  if (field.description) parts.push(`- ${field.description}`);
  const hints: string[] = [field.type ?? "string"];
  if (choices) hints.push(`one of: ${choices.join(", ")}`);
  if (field.default !== undefined) hints.push(`default ${JSON.stringify(field.default)}`);
  if (!required) hints.push("optional");
  return `${parts.join(" ")} (${hints.join("; ")}): `;
}

/** Turn typed text into a value of the field's type; comma-separated for string lists. */
export function parseFieldValue(field: FieldSchema, text: string): FieldParse {
  const raw = text.trim();
  switch (field.type) {
    case "number":
    case "integer": {
      const number = Number(raw);
      if (raw === "" || !Number.isFinite(number)) return fail(`"${raw}" is not a number.`);
      if (field.type === "integer" && !Number.isInteger(number))
        return fail(`"${raw}" is not a whole number.`);
      if (field.minimum !== undefined && number < field.minimum)
        return fail(`must be at least ${field.minimum}.`);
      if (field.maximum !== undefined && number > field.maximum)
        return fail(`must be at most ${field.maximum}.`);
      return { ok: true, value: number };
    }
    case "boolean":
      if (/^(y|yes|true)$/i.test(raw)) return { ok: true, value: true };
      if (/^(n|no|false)$/i.test(raw)) return { ok: true, value: false };
      return fail('answer "y" or "n".');
    case "array": {
      const values = raw
        .split(",")
        .map((item) => item.trim())
        .filter((item) => item !== "");
      const choices = itemChoices(field);
      const wrong = choices ? values.filter((value) => !choices.includes(value)) : [];
      if (wrong.length > 0) return fail(`not allowed: ${wrong.join(", ")}.`);
      return { ok: true, value: values };
    }
    default: {
      const choices = allowedValues(field);
      if (choices && !choices.includes(raw)) return fail(`choose one of: ${choices.join(", ")}.`);
      return { ok: true, value: raw };
    }
  }
}

function allowedValues(field: FieldSchema): string[] | undefined {
  if (Array.isArray(field.enum)) return field.enum.map(String);
  if (Array.isArray(field.oneOf)) return field.oneOf.map((option) => String(option.const));
  return field.type === "array" ? itemChoices(field) : undefined;
}

function itemChoices(field: FieldSchema): string[] | undefined {
  if (Array.isArray(field.items?.enum)) return field.items.enum.map(String);
  if (Array.isArray(field.items?.anyOf)) return field.items.anyOf.map((o) => String(o.const));
  return undefined;
}

function fail(message: string): FieldParse {
  return { ok: false, message };
}

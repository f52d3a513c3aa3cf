// Object schemas as TypeScript object types: properties with `?` when not required, doc
// comments from their descriptions, index signatures for `additionalProperties` and
// `patternProperties`, one line when short and multi-line when not.
import {
  charge,
  exhausted,
  inside,
  itemOf,
  type RenderContext,
  type RenderPosition,
} from "./render-context.js";
import { asRecord, docComment, FREE_FORM_OBJECT, propertyKey, unionOf } from "./type-text.js";

/** Renders one schema node (the converter's entry, passed in to keep modules acyclic). */
export type RenderNode = (schema: unknown, context: RenderContext, at: RenderPosition) => string;

/** The widest object kept on one line, as the type's own text. */
const COMPACT_WIDTH = 100;

interface Member {
  doc: string;
  text: string;
}

/** The type of an object schema (`type: "object"`, or a schema that only has properties). */
export function objectType(
  schema: Record<string, unknown>,
  context: RenderContext,
  at: RenderPosition,
  render: RenderNode,
): string {
  const properties = asRecord(schema.properties);
  const keys = properties === undefined ? [] : Object.keys(properties);
  const required = requiredSet(schema.required);
  const memberAt = inside(at);
  const pad = memberAt.indent;
  const members: Member[] = [];
  let shown = 0;
  for (const key of keys) {
    if (exhausted(context)) break;
    const property = properties![key];
    const doc = docComment(asRecord(property)?.description);
    const head = `${propertyKey(key)}${required.has(key) ? "" : "?"}: `;
    const type = render(property, context, memberAt);
    // What this member adds around its type, as the multi-line layout writes it.
    charge(context, `${doc === "" ? "" : `${pad}${doc}\n`}${pad}${head};\n`);
    members.push({ doc, text: `${head}${type}` });
    shown += 1;
  }
  if (shown < keys.length) {
    context.truncated = true;
    const hidden = keys.length - shown;
    const note = `/** ${hidden} more ${hidden === 1 ? "property" : "properties"} not shown */`;
    members.push({ doc: charge(context, note), text: charge(context, "[key: string]: unknown") });
  }
  // With no properties, the index type is the whole type: on the object's own lines.
  const indexAt = keys.length === 0 ? itemOf(at) : memberAt;
  const index = indexType(schema, context, indexAt, render);
  if (members.length === 0) {
    if (index !== undefined) {
      charge(context, "Record<string, >");
      return `Record<string, ${index}>`;
    }
    const closed = schema.additionalProperties === false || properties !== undefined;
    return charge(context, closed ? "{}" : FREE_FORM_OBJECT);
  }
  let extra = "";
  if (index === "unknown" && shown === keys.length)
    members.push({ doc: "", text: charge(context, "[key: string]: unknown") });
  // An index signature must admit every property's type; beside typed properties it goes into
  // an intersection, which TypeScript does not check that way.
  else if (index !== undefined && index !== "unknown") {
    extra = ` & Record<string, ${index}>`;
    context.spent += extra.length - index.length;
  }
  return `${layout(members, at.indent, pad)}${extra}`;
}

/** `{ a: string; b?: number }` when it fits and says nothing more, else one member a line. */
function layout(members: readonly Member[], indent: string, pad: string): string {
  const compact = `{ ${members.map((member) => member.text).join("; ")} }`;
  const plain = members.every((member) => member.doc === "" && !member.text.includes("\n"));
  if (plain && compact.length <= COMPACT_WIDTH) return compact;
  const lines = members.map(
    (member) => `${member.doc === "" ? "" : `${pad}${member.doc}\n`}${pad}${member.text};`,
  );
  return `{\n${lines.join("\n")}\n${indent}}`;
}

/** The value type of extra keys, or undefined when the schema allows none it describes. */
function indexType(
  schema: Record<string, unknown>,
  context: RenderContext,
  at: RenderPosition,
  render: RenderNode,
): string | undefined {
  const types: string[] = [];
  const additional = schema.additionalProperties;
  if (additional === true) types.push("unknown");
  else if (asRecord(additional) !== undefined) types.push(render(additional, context, at));
  const patterns = asRecord(schema.patternProperties);
  if (patterns !== undefined)
    for (const pattern of Object.keys(patterns)) {
      if (exhausted(context)) {
        types.push("unknown");
        break;
      }
      types.push(render(patterns[pattern], context, at));
    }
  return types.length === 0 ? undefined : unionOf(types);
}

function requiredSet(required: unknown): Set<string> {
  const set = new Set<string>();
  if (Array.isArray(required))
    for (const key of required) if (typeof key === "string") set.add(key);
  return set;
}

import { useState } from "preact/hooks";
import type { JsonSchema } from "../types.js";
import { initialValue, isObject, join, typeOf } from "./schema-values.js";

interface FieldProps {
  schema: JsonSchema;
  value: unknown;
  path: string;
  label: string;
  required: boolean;
  errors: Record<string, string>;
  onChange(value: unknown): void;
}

/**
 * A form generated from a tool's input schema: nested objects as fieldsets, arrays as lists
 * with add and remove, enums as choices, defaults filled in, and each field's message from
 * `validate` under it. What a schema says that a form cannot (anyOf, oneOf, no type) is edited
 * as JSON.
 */
export function SchemaForm(props: {
  schema: JsonSchema;
  value: unknown;
  errors: Record<string, string>;
  onChange(value: unknown): void;
}) {
  return (
    <SchemaField
      schema={props.schema}
      value={props.value}
      path=""
      label=""
      required
      errors={props.errors}
      onChange={props.onChange}
    />
  );
}

function SchemaField(props: FieldProps) {
  const { schema, value, path, errors, onChange } = props;
  const type = typeOf(schema);
  if (type === "object" && !schema.anyOf && !schema.oneOf) {
    const object = isObject(value) ? value : {};
    const body = Object.entries(schema.properties ?? {}).map(([key, property]) => (
      <SchemaField
        key={key}
        schema={property}
        value={object[key]}
        path={join(path, key)}
        label={property.title ?? key}
        required={(schema.required ?? []).includes(key)}
        errors={errors}
        onChange={(next) => onChange({ ...object, [key]: next })}
      />
    ));
    if (path === "") return <div class="schema-form">{body}</div>;
    return <Group {...props}>{body}</Group>;
  }
  if (type === "array" && schema.items && typeOf(schema.items) !== undefined) {
    const list = Array.isArray(value) ? value : [];
    const items = schema.items;
    return (
      <Group {...props}>
        {list.map((item, index) => (
          <div class="array-item" key={`${path}.${index}`}>
            <SchemaField
              schema={items}
              value={item}
              path={join(path, String(index))}
              label={`${props.label} ${index + 1}`}
              required
              errors={errors}
              onChange={(next) => onChange(list.map((old, at) => (at === index ? next : old)))}
            />
            <button
              type="button"
              class="small"
              aria-label={`remove ${props.label} ${index + 1}`}
              onClick={() => onChange(list.filter((_, at) => at !== index))}
            >
              Remove
            </button>
          </div>
        ))}
        <button
          type="button"
          class="small"
          data-add={path}
          onClick={() => onChange([...list, initialValue(items)])}
        >
          Add {props.label}
        </button>
      </Group>
    );
  }
  return <LeafField {...props} type={type} />;
}

/** An object's or a list's fields, framed with its label, description and message. */
function Group(props: FieldProps & { children: preact.ComponentChildren }) {
  return (
    <fieldset class="field" data-field={props.path}>
      <legend>
        {props.label}
        {props.required ? <span class="req">*</span> : null}
      </legend>
      {props.schema.description ? <p class="hint">{props.schema.description}</p> : null}
      {props.children}
      <FieldError errors={props.errors} path={props.path} />
    </fieldset>
  );
}

function LeafField(props: FieldProps & { type: string | undefined }) {
  const { schema, value, path, type, onChange } = props;
  const id = `field-${path || "value"}`;
  let input: preact.JSX.Element;
  if (type === "enum") {
    const options = schema.enum ?? [];
    input = (
      <select
        id={id}
        name={path}
        value={value === undefined ? "" : JSON.stringify(value)}
        onChange={(event) => {
          const raw = (event.target as HTMLSelectElement).value;
          onChange(raw === "" ? undefined : JSON.parse(raw));
        }}
      >
        {props.required && value !== undefined ? null : <option value="">—</option>}
        {options.map((option) => (
          <option key={JSON.stringify(option)} value={JSON.stringify(option)}>
            {String(option)}
          </option>
        ))}
      </select>
    );
  } else if (type === "boolean") {
    input = (
      <input
        id={id}
        name={path}
        type="checkbox"
        checked={value === true}
        onChange={(event) => onChange((event.target as HTMLInputElement).checked)}
      />
    );
  } else if (type === "number" || type === "integer") {
    input = (
      <input
        id={id}
        name={path}
        type="number"
        step={type === "integer" ? 1 : "any"}
        value={typeof value === "number" ? String(value) : ""}
        onInput={(event) => {
          const raw = (event.target as HTMLInputElement).value;
          onChange(raw === "" ? undefined : Number(raw));
        }}
      />
    );
  } else if (type === "string") {
    const long = (schema.maxLength ?? 0) > 200 || /content|text|body/i.test(path);
    const common = {
      id,
      name: path,
      value: typeof value === "string" ? value : "",
      placeholder: schema.format ?? "",
      onInput: (event: Event) => onChange((event.target as HTMLInputElement).value),
    };
    input = long ? <textarea rows={4} {...common} /> : <input type="text" {...common} />;
  } else {
    input = <JsonField id={id} path={path} value={value} onChange={onChange} />;
  }
  return (
    <div class="field" data-field={path}>
      <label for={id}>
        {props.label || "value"}
        {props.required ? <span class="req">*</span> : null}
        {type && type !== "enum" ? <span class="type">{type}</span> : null}
      </label>
      {input}
      {schema.description ? <p class="hint">{schema.description}</p> : null}
      <FieldError errors={props.errors} path={path} />
    </div>
  );
}

/** A value the form cannot shape, typed as JSON; a parse error shows under it. */
function JsonField(props: {
  id: string;
  path: string;
  value: unknown;
  onChange(value: unknown): void;
}) {
  const [text, setText] = useState(props.value === undefined ? "" : JSON.stringify(props.value));
  const [problem, setProblem] = useState("");
  return (
    <>
      <textarea
        id={props.id}
        name={props.path}
        rows={3}
        class="mono"
        value={text}
        placeholder="JSON"
        onInput={(event) => {
          const raw = (event.target as HTMLTextAreaElement).value;
          setText(raw);
          if (raw.trim() === "") {
            setProblem("");
            props.onChange(undefined);
            return;
          }
          try {
            props.onChange(JSON.parse(raw));
            setProblem("");
          } catch (error) {
            setProblem(`Not JSON: ${(error as Error).message}`);
          }
        }}
      />
      {problem ? <span class="field-error">{problem}</span> : null}
    </>
  );
}

function FieldError({ errors, path }: { errors: Record<string, string>; path: string }) {
  const message = errors[path];
  return message ? (
    <span class="field-error" role="alert" data-error-for={path}>
      {message}
    </span>
  ) : null;
}

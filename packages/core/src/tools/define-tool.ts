import type { z } from "zod";
import { zodNow } from "../config/zod-schema.js";
import type { ArgumentValidation, Tool, ToolExecutionContext } from "../contracts/tool.js";
import type { ToolDefinition } from "../contracts/tool-definition.js";
import { type ToolResult, toolSuccess } from "../contracts/tool-result.js";
import { INLINE_TOOL_SOURCE } from "./inline-tool-source.js";

export interface DefineToolSpec<Schema extends z.ZodObject> {
  name: string;
  description: string;
  /** zod object schema of the arguments; the JSON Schema the model sees is generated from it. */
  input: Schema;
  safety: ToolDefinition["safety"];
  /**
   * Id of the tool source that offers it. Default `code` ({@link INLINE_TOOL_SOURCE}): what a
   * tool passed to `createAgent({ tools })` needs; a plugin's own source sets its id here.
   */
  source?: string | undefined;
  category?: ToolDefinition["category"] | undefined;
  permissionKey?: ToolDefinition["permissionKey"] | undefined;
  /** Other names the tool answers to (see {@link ToolDefinition.aliases}). */
  aliases?: readonly string[] | undefined;
  timeoutMs?: number | undefined;
  /**
   * `true`: the model finds the tool through tool search instead of being sent its definition
   * on every request (see {@link ToolDefinition.deferLoading}). Default: always sent.
   */
  deferLoading?: boolean | undefined;
  /** The tool calls other tools through `context.inner` (see {@link ToolDefinition.innerCalls}). */
  innerCalls?: boolean | undefined;
  /** Who may call it: the model, its source's app views, or both (see {@link ToolDefinition.audience}). */
  audience?: ToolDefinition["audience"];
  /** Return a ToolResult, or a string for a plain text success. */
  execute(
    args: z.infer<Schema>,
    context: ToolExecutionContext,
  ): Promise<ToolResult | string> | ToolResult | string;
}

/**
 * Build a Tool from a zod schema: the JSON Schema is generated once, arguments are parsed by
 * zod once, when the registry validates the call, and failures name the offending path.
 */
export function defineTool<Schema extends z.ZodObject>(spec: DefineToolSpec<Schema>): Tool {
  const inputSchema = jsonSchemaOf(spec.input);
  const definition: ToolDefinition = {
    name: spec.name,
    description: spec.description,
    inputSchema,
    safety: spec.safety,
    source: spec.source ?? INLINE_TOOL_SOURCE,
  };
  if (spec.category) definition.category = spec.category;
  if (spec.permissionKey) definition.permissionKey = spec.permissionKey;
  if (spec.timeoutMs) definition.timeoutMs = spec.timeoutMs;
  if (spec.aliases && spec.aliases.length > 0) definition.aliases = [...spec.aliases];
  if (spec.deferLoading !== undefined) definition.deferLoading = spec.deferLoading;
  if (spec.innerCalls) definition.innerCalls = true;
  if (spec.audience) definition.audience = [...spec.audience];
  return {
    definition,
    validate(args): ArgumentValidation {
      const parsed = spec.input.safeParse(args);
      return parsed.success
        ? { ok: true, value: parsed.data }
        : { ok: false, message: formatZodIssues(parsed.error) };
    },
    async execute(args, context) {
      // The registry passes what `validate` parsed, so zod runs once per call.
      const output = await spec.execute(args as z.infer<Schema>, context);
      return typeof output === "string" ? toolSuccess(output) : output;
    },
  };
}

/** `path.to.field: message; other: message` - short enough for a model to act on. */
export function formatZodIssues(error: z.ZodError): string {
  return error.issues
    .map(
      (issue) =>
        `${issue.path.length > 0 ? issue.path.join(".") : "(arguments)"}: ${issue.message}`,
    )
    .join("; ");
}

/**
 * The arguments' JSON Schema, from the schema's own `toJSONSchema` when it has one (zod 4.2
 * and later): the caller's zod made the schema, so nothing of ours loads to describe it.
 */
function jsonSchemaOf(schema: z.ZodObject): Record<string, unknown> {
  const json = (
    typeof schema.toJSONSchema === "function"
      ? schema.toJSONSchema({ io: "input" })
      : zodNow().toJSONSchema(schema, { io: "input" })
  ) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

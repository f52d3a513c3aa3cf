import { transformJSONSchema } from "@anthropic-ai/sdk/lib/transform-json-schema";
import type { OutputFormat } from "@pseudoclaude/core/provider";

/**
 * The output schema as Claude's structured outputs take it (`output_config.format`): the
 * SDK's own transform closes objects and moves the constraints the API does not take
 * (`minLength`, `maximum` ...) into descriptions. The kernel still validates the answer with
 * the original schema. A schema the transform cannot handle (no `type` at the root of a
 * branch) is sent as it is, for the API to judge.
 */
export function toOutputConfig(format: OutputFormat): {
  format: { type: "json_schema"; schema: Record<string, unknown> };
} {
  let schema: Record<string, unknown>;
  try {
    schema = transformJSONSchema(format.schema) as Record<string, unknown>;
  } catch {
    schema = format.schema;
  }
  return { format: { type: "json_schema", schema } };
}

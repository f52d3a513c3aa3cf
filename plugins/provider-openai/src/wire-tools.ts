import type { ToolDefinition } from "@pseudoclaude/core";
import { type JsonSchema, objectInputSchema } from "@pseudoclaude/core/plugin";
import { createToolNameMap, type ToolNameMap } from "@pseudoclaude/core/provider";
import { removeAddedNulls, toStrictSchema } from "./strict-schema.js";

/** One tool as both OpenAI APIs describe a function. */
export interface WireFunction {
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: boolean;
}

/** The tools of one request, with what it takes to read the model's calls back. */
export interface WireTools {
  functions: WireFunction[];
  names: ToolNameMap;
  /** Registry name and arguments as the registry should see them. */
  readCall(wireName: string, args: unknown): { name: string; arguments: unknown };
}

/**
 * Project the offered tools. The kernel hands the same array while the registry is unchanged,
 * so the projection is cached per array instead of rebuilt every turn.
 */
export class OpenAIToolProjector {
  private readonly cache = new WeakMap<readonly ToolDefinition[], WireTools>();

  constructor(private readonly strict: boolean) {}

  project(tools: readonly ToolDefinition[]): WireTools {
    const cached = this.cache.get(tools);
    if (cached) return cached;
    const names = createToolNameMap(tools.map((tool) => tool.name));
    // Tools sent strict, by registry name, with the schema their nulls are read against.
    const strictSchemas = new Map<string, JsonSchema>();
    const functions = tools.map((tool): WireFunction => {
      const strictSchema = this.strict ? toStrictSchema(tool.inputSchema) : undefined;
      if (strictSchema) strictSchemas.set(tool.name, tool.inputSchema);
      return {
        name: names.toWire(tool.name),
        description: tool.description,
        parameters: strictSchema ?? toParameters(tool.inputSchema),
        strict: strictSchema !== undefined,
      };
    });
    const projected: WireTools = {
      functions,
      names,
      readCall(wireName, args) {
        const name = names.fromWire(wireName);
        const schema = strictSchemas.get(name);
        return {
          name,
          arguments: schema && typeof args === "object" ? removeAddedNulls(args, schema) : args,
        };
      },
    };
    this.cache.set(tools, projected);
    return projected;
  }
}

/**
 * Non-strict parameters: a copy of the tool's schema (the registry keeps validating with the
 * original) as an object schema, which the registry already made it (see `objectInputSchema`),
 * with the `properties` function parameters must have.
 */
export function toParameters(schema: JsonSchema): JsonSchema {
  const copy = structuredClone(objectInputSchema(schema));
  // A schema for something else than an object was replaced whole; it gets nothing more.
  const replaced = schema.type !== undefined && schema.type !== "object";
  if (copy.properties === undefined && !replaced) copy.properties = {};
  return copy;
}

import type { z } from "zod";
import type { ConfigSectionSpec } from "../config/config-section.js";
import type { LoadedConfig } from "../config/load-config.js";
import { validateSection } from "../config/validate-section.js";
import { zodSchema } from "../config/zod-schema.js";
import type { Diagnostic } from "../contracts/diagnostic.js";
import {
  TOOL_SEARCH_ENGINES,
  TOOL_SEARCH_MODES,
  type ToolSearchMode,
  type ToolSearchOptions,
} from "./tool-search-options.js";

/**
 * Config section `tool_search`: a mode (`tool_search: auto`) or the mode with its settings.
 * Not to be confused with `permissions.tools`, which decides what may run at all.
 */
export const toolSearchSectionSchema = zodSchema((z) =>
  z.union([
    z.enum(TOOL_SEARCH_MODES),
    z
      .object({
        mode: z.enum(TOOL_SEARCH_MODES).optional(),
        engine: z.enum(TOOL_SEARCH_ENGINES).optional(),
        pin: z.array(z.string().min(1)).optional(),
        max_results: z.number().int().min(1).max(50).optional(),
        context_share: z.number().gt(0).max(1).optional(),
        tokens: z.number().int().positive().optional(),
        max_tools: z.number().int().positive().optional(),
      })
      .strict(),
  ]),
);

type ToolSearchLayer = z.infer<ReturnType<typeof toolSearchSectionSchema>>;

export const TOOL_SEARCH_SECTION = "tool_search";

/**
 * Layers combine key by key, the project's over the user's; pins add up. Deferring a tool
 * hides only its definition until it is found, never what it may do, so a workspace may set
 * any of it without consent.
 */
export const TOOL_SEARCH_SECTION_SPEC: ConfigSectionSpec = {
  key: TOOL_SEARCH_SECTION,
  owner: "kernel",
  additive: ["pin"],
};

/** The section's layers merged, as `createAgent({ toolSearch })` takes it; code wins over both. */
export function readToolSearchSection(
  config: LoadedConfig,
  report: (diagnostic: Diagnostic) => void,
): ToolSearchOptions {
  const merged: ToolSearchOptions = {};
  const pins: string[] = [];
  for (const entry of config.section(TOOL_SEARCH_SECTION)) {
    const checked = validateSection(toolSearchSectionSchema(), entry, {
      sectionKey: TOOL_SEARCH_SECTION,
    });
    if (!checked.ok) {
      checked.diagnostics.forEach(report);
      continue;
    }
    const layer = asObject(checked.value);
    if (layer.mode !== undefined) merged.mode = layer.mode;
    if (layer.engine !== undefined) merged.engine = layer.engine;
    if (layer.max_results !== undefined) merged.maxResults = layer.max_results;
    if (layer.context_share !== undefined) merged.contextShare = layer.context_share;
    if (layer.tokens !== undefined) merged.tokens = layer.tokens;
    if (layer.max_tools !== undefined) merged.maxTools = layer.max_tools;
    pins.push(...(layer.pin ?? []));
  }
  if (pins.length > 0) merged.pin = pins;
  return merged;
}

/** Code options over the config's: a mode alone replaces only the mode. */
export function mergeToolSearchOptions(
  config: ToolSearchOptions,
  code: ToolSearchMode | ToolSearchOptions | undefined,
): ToolSearchOptions {
  if (code === undefined) return config;
  const given = typeof code === "string" ? { mode: code } : code;
  const merged: ToolSearchOptions = { ...config };
  for (const [key, value] of Object.entries(given))
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  if (config.pin && given.pin) merged.pin = [...config.pin, ...given.pin];
  return merged;
}

function asObject(layer: ToolSearchLayer): Exclude<ToolSearchLayer, string> {
  return typeof layer === "string" ? { mode: layer } : layer;
}

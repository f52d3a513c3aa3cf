import type { ConfigSectionSpec } from "@pseudoclaude/core/plugin";
import { z } from "zod";

/** The config section this plugin owns. */
export const BUILTIN_TOOLS_SECTION = "builtin_tools";

/** `extra_roots` add up; it confines the tools, so a mistake in it fails closed. */
export const BUILTIN_TOOLS_SECTION_SPEC: ConfigSectionSpec = {
  key: BUILTIN_TOOLS_SECTION,
  owner: "builtin-tools",
  additive: ["extra_roots"],
  restricts: true,
};

/**
 * One schema per key, so a bad key in a layer is reported at its line and skipped while the
 * layer's other keys still apply.
 */
export const sectionFieldSchemas = {
  extra_roots: z.array(z.unknown()),
  max_output_chars: z.number().int().min(1_000).max(1_000_000),
  command_timeout_ms: z.number().int().positive(),
  shell: z.string().min(1),
  /**
   * Variables set for every command `run_command` starts (Claude Code's `env` arrives here,
   * where numbers and booleans are written too: they are passed as their text).
   */
  env: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
} as const;

/** One entry of `extra_roots`. */
export const extraRootSchema = z.string().min(1, "must be a non-empty path");

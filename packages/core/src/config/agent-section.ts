import type { z } from "zod";
import type { Diagnostic } from "../contracts/diagnostic.js";
import type { ConfigSectionSpec } from "./config-section.js";
import type { LoadedConfig } from "./load-config.js";
import { validateSection } from "./validate-section.js";
import { zodSchema } from "./zod-schema.js";

/** Config section `agent`: loop and call limits. Project overrides user, key by key. */
export const agentSectionSchema = zodSchema((z) =>
  z
    .object({
      max_turns: z.number().int().positive().optional(),
      tool_timeout_ms: z.number().int().positive().optional(),
      /** Tool calls running at once, agent-wide; more wait for a free slot. Default 64. */
      max_concurrent_calls: z.number().int().positive().optional(),
      system_prompt_budget_chars: z.number().int().positive().optional(),
      /** Compact when a request would pass this share of the context window. */
      compact_threshold: z.number().gt(0).max(1).optional(),
      /** The model's context window in tokens, over what the provider declares. */
      context_window: z.number().int().positive().optional(),
      /**
       * `false`: no instruction files (CLAUDE.md, AGENTS.md) in the system prompt. Read by the
       * `instructions` plugin; any layer's `false` holds, so a workspace can only turn them off.
       */
      instructions: z.boolean().optional(),
      /**
       * The CLI's base system prompt, replaced (the user's layer); a workspace's is instruction
       * text, put with its CLAUDE.md, never a replacement of the user's.
       */
      system_prompt: z.string().optional(),
      /** Text after the CLI's base system prompt (the user's layer; a workspace's as above). */
      append_system_prompt: z.string().optional(),
    })
    .strict(),
);

export type AgentSection = z.infer<ReturnType<typeof agentSectionSchema>>;

export const AGENT_SECTION = "agent";

/** The `agent` section: project values override user values key by key. */
export const AGENT_SECTION_SPEC: ConfigSectionSpec = { key: AGENT_SECTION, owner: "kernel" };

export function readAgentSection(
  config: LoadedConfig,
  report: (diagnostic: Diagnostic) => void,
): AgentSection {
  const merged: AgentSection = {};
  for (const entry of config.section(AGENT_SECTION)) {
    const checked = validateSection(agentSectionSchema(), entry, { sectionKey: AGENT_SECTION });
    if (checked.ok) Object.assign(merged, checked.value);
    else checked.diagnostics.forEach(report);
  }
  return merged;
}

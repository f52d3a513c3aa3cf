import { AGENT_SECTION_SPEC } from "./config/agent-section.js";
import type { ConfigSectionSpec } from "./config/config-section.js";
import { ENV_SECTION_SPEC } from "./config/env-section.js";
import { PERMISSIONS_SECTION_SPEC } from "./policy/permissions-section.js";
import { TOOL_SEARCH_SECTION_SPEC } from "./tool-search/tool-search-section.js";

/** The sections the kernel reads itself, declared like a plugin's. */
export const KERNEL_SECTIONS: readonly ConfigSectionSpec[] = [
  AGENT_SECTION_SPEC,
  ENV_SECTION_SPEC,
  PERMISSIONS_SECTION_SPEC,
  TOOL_SEARCH_SECTION_SPEC,
];

import type { LoadedConfig } from "../config/load-config.js";
import type { ConsentKind, ConsentSubject } from "./consent-store.js";

/**
 * One setting a workspace's files may use only with the user's consent, because it widens what
 * the agent does. Declared next to the code that enforces it; `docs/security.md` lists them.
 */
export interface WideningSetting {
  /** Where it is written: `permissions.allow`, `mcp_servers.<name>`, `.claude/agents/*.md`. */
  setting: string;
  /** The consent subject that covers it. */
  kind: ConsentKind;
  /** What it would do without the user's say, in their words. */
  effect: string;
}

/** What a plugin reads to tell what a workspace asks for, without starting anything. */
export interface ConsentRequestContext {
  config: LoadedConfig;
  workspace: string;
  homeDir: string;
  env: NodeJS.ProcessEnv;
}

/**
 * A plugin's part of the trust rule: the settings of its own that widen, and the subjects a
 * workspace's files ask for now (what `pseudoclaude trust` lists and approves). The plugin's
 * `register` still decides, through `context.consent`, what runs.
 */
export interface PluginTrust {
  widening: readonly WideningSetting[];
  requests(context: ConsentRequestContext): ConsentSubject[] | Promise<ConsentSubject[]>;
}

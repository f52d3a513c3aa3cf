import type { Diagnostic } from "@pseudoclaude/core";
import type { SkillLayer } from "../discovery/skill-roots.js";

/** `available`: offered to load; `loaded`: its procedure was read and its tools are on. */
export type SkillState = "available" | "loaded" | "disabled" | "invalid";

/** A file bundled with a skill, listed without being read. */
export interface BundledFile {
  /** Relative to the skill's folder, with `/`. */
  path: string;
  size: number;
  /** An executable file in `scripts/`, offered as a tool while the skill is loaded. */
  tool?: string;
}

/** One skill as code and the CLI see it. */
export interface SkillInfo {
  name: string;
  description: string;
  layer: SkillLayer;
  /** Its SKILL.md (the URI of a served skill's); absent for a skill defined in code. */
  path?: string;
  /** Who serves it, for a skill of a catalog layer (`MCP server "docs"`). */
  origin?: string;
  dir?: string;
  state: SkillState;
  /** False for `disable-model-invocation: true`: left out of the model's index. */
  modelInvocable: boolean;
  /** `allowed-tools` as written. */
  allowedTools: readonly string[];
  /** What they map to in our permission rules (`run_command(git log*)`). */
  permissions: readonly string[];
  /** Whether they pre-approve anything: false for a project skill the user has not trusted. */
  allowedToolsHonoured: boolean;
  /** Its tools while loaded. */
  tools: readonly string[];
  /** Every front-matter field, those other agents add included. */
  fields: Readonly<Record<string, unknown>>;
  diagnostics: readonly Diagnostic[];
}

/** What loading a skill gives: its procedure, where it lives, and what came with it. */
export interface LoadedSkill {
  skill: SkillInfo;
  /** The SKILL.md body, front matter removed. */
  body: string;
  files: readonly BundledFile[];
  /** True when it was loaded before: nothing was added again. */
  alreadyLoaded: boolean;
}

/** Who asked to load a skill: the model (through `load_skill`), a person, or code. */
export type SkillLoader = "model" | "user" | "code";

/** Events of the skills manager; the registry emits its own for every tool added or removed. */
export interface SkillsManagerEvents {
  /** The set of skills or their states changed (a rescan, a load, an unload). */
  changed: [{ skills: readonly SkillInfo[] }];
  loaded: [{ skill: SkillInfo; by: SkillLoader; tools: readonly string[] }];
  unloaded: [
    { skill: SkillInfo; tools: readonly string[]; reason: "request" | "removed" | "closed" },
  ];
}

/**
 * The plugin's API for code (`agent.resolve<SkillsManager>(SkillsManager)`): every skill with
 * its state, loading and unloading, and events.
 */
export interface SkillsManager {
  /** Every skill found (invalid and disabled ones too), in lookup order. */
  list(): readonly SkillInfo[];
  get(name: string): SkillInfo | undefined;
  /**
   * The skills index exactly as the model reads it in the system prompt (its "Skills" section),
   * or undefined when no skill is in it.
   */
  modelIndex(): string | undefined;
  /**
   * Load a skill: its tools and allowed-tools layer go on. A person or code may load a skill the
   * model may not (`disable-model-invocation`); its procedure then joins the system prompt.
   * Throws `UsageError` (`unknown_skill`, `skill_invalid`, `skill_disabled`) otherwise. A skill
   * of a catalog layer (an MCP server's) is read now, and refused with
   * `skill_verification_failed` when its content does not match its listing.
   */
  load(name: string, options?: { by?: SkillLoader; signal?: AbortSignal }): Promise<LoadedSkill>;
  /** Unload a skill; false when it was not loaded. */
  unload(name: string): boolean;
  /**
   * Look at the skill folders again now (the watcher does this on every change), once the
   * catalog layers' listings in flight are done.
   */
  refresh(): Promise<void>;
  on<E extends keyof SkillsManagerEvents>(
    event: E,
    listener: (...args: SkillsManagerEvents[E]) => void,
  ): this;
  off<E extends keyof SkillsManagerEvents>(
    event: E,
    listener: (...args: SkillsManagerEvents[E]) => void,
  ): this;
}

/** DI token for {@link SkillsManager}. */
export const SkillsManager = Symbol.for("@pseudoclaude/plugin-skills:SkillsManager");

import type { Disposable } from "../util/disposable.js";

/** One file of a skill a layer lists, known without reading it. */
export interface SkillLayerFile {
  /** Relative to the skill's root, with `/` (`SKILL.md`, `references/FORMS.md`). */
  path: string;
  /** Bytes, as the layer lists them: a read of another length is refused. */
  size: number;
}

/**
 * One skill as a layer lists it: its front matter and its files, not their content. Enough for
 * the index, the `load_skill` enum and the trust decision; the body is read when it is loaded.
 */
export interface SkillLayerEntry {
  /**
   * The skill's key in its layer, unique there (a skill path such as `acme/billing/refunds`).
   * The model loads it as `<layer id>/<key>`, so it never shadows a skill of another origin.
   */
  key: string;
  /**
   * The front matter the layer promises, verbatim. The SKILL.md read on load must say the same,
   * field by field, or the skill is not loaded.
   */
  frontmatter: Readonly<Record<string, unknown>>;
  /** Where it lives, as a person reads it (`skill://pdf-processing/SKILL.md`). */
  location: string;
  /** Every file of the skill, `SKILL.md` included. */
  files: readonly SkillLayerFile[];
}

/**
 * A source of skills other than the skill folders (an MCP server's, say), which a plugin adds
 * to the {@link SkillCatalog}. The Skills plugin shows its entries in the index under the
 * layer's id and reads a file only when the model loads the skill or asks for the file.
 */
export interface SkillLayerProvider {
  /** Unique in the catalog, with a kind prefix (`mcp:<server>`); also the skills' namespace. */
  readonly id: string;
  /** Who serves these skills, as a person reads it (`MCP server "docs"`). */
  readonly origin: string;
  /**
   * Whether its skills' `allowed-tools` may pre-approve calls on the layer's word alone. False
   * for content from elsewhere (a server): then only the user's approval of the layer
   * (`skills.trusted: [<layer id>]` in the user config) makes them count.
   */
  readonly trusted: boolean;
  /** The skills listed now. */
  entries(): readonly SkillLayerEntry[];
  /**
   * One listed file of one skill, checked against the listing before it is returned (size,
   * digest, whatever the layer can check). Rejects with a message naming the origin, the skill,
   * what was expected and what came; unchecked content is never returned.
   */
  readFile(key: string, path: string, signal: AbortSignal): Promise<string>;
}

/** What {@link SkillCatalog.add} returns: the layer's handle to say it changed, and to leave. */
export interface SkillLayerRegistration extends Disposable {
  /** The layer's entries changed (a new listing): readers look again. */
  changed(): void;
  /**
   * Work after which the entries are current (a listing in flight): `whenSettled` waits for it,
   * so code that just built an agent can wait for every layer's first listing.
   */
  pending(work: Promise<unknown>): void;
}

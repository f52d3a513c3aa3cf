/**
 * How one config section is read, declared once by its owner: how its layers combine, which
 * keys only the user's own config may set, and whether a mistake in it must stop a run. The
 * owner's reader follows it, and `pseudoclaude config` merges by it, so what the config view
 * shows is what the reader does.
 */
export interface ConfigSectionSpec {
  /** The top-level key: `permissions`. */
  readonly key: string;
  /** Who reads it: `kernel`, `cli`, or a plugin's name. */
  readonly owner: string;
  /** Keys whose lists add up across layers (user, project, code); every other key comes from the most specific layer. */
  readonly additive?: readonly string[] | undefined;
  /** The section maps names to entries, and a more specific layer replaces an entry whole (`mcp_servers`). */
  readonly entries?: boolean | undefined;
  /** Keys only the user's own config may set: in a workspace's config they are ignored. */
  readonly userOnly?: readonly string[] | undefined;
  /**
   * A layer that sets this key to another value than the layer before it stands alone: the
   * earlier layer's other keys no longer fit (the provider's `name`).
   */
  readonly standsAloneOn?: string | undefined;
  /**
   * The section can restrict what the agent does (rules, guards, confinement): a mistake in it
   * fails closed, as a blocking diagnostic, instead of dropping what it restricts.
   */
  readonly restricts?: boolean | undefined;
}

/**
 * The third-party packages a starter app depends on, at the versions this release of
 * PseudoClaude is built and tested with (the repository's own pins; a test in the repository
 * fails when they drift apart). The `@pseudoclaude/*` packages take this package's version,
 * since every package of a release shares one.
 */
export const STARTER_VERSIONS = {
  zod: "4.6.7",
  "@modelcontextprotocol/server-filesystem": "2026.8.31",
  typescript: "6.0.3",
  "@types/node": "20.19.43",
} as const;

/** The `@pseudoclaude/*` packages the starter's code imports. */
export const STARTER_PACKAGES = [
  "@pseudoclaude/core",
  "@pseudoclaude/plugin-mcp",
  "@pseudoclaude/plugin-skills",
  "@pseudoclaude/provider-anthropic",
  "@pseudoclaude/provider-openai",
  "@pseudoclaude/provider-scripted",
] as const;

import { STARTER_PACKAGES, STARTER_VERSIONS } from "./versions.js";

/** The starter's package.json: what it runs and what it depends on, at exact versions. */
export interface StarterManifest {
  name: string;
  version: string;
  private: true;
  type: "module";
  scripts: Record<string, string>;
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

/**
 * `version` is the one every `@pseudoclaude/*` package of the release shares. The scripted
 * provider is a run-time dependency, not a dev one: `npm start` falls back to it offline.
 */
export function starterManifest(name: string, version: string): StarterManifest {
  const dependencies: Record<string, string> = {
    "@modelcontextprotocol/server-filesystem":
      STARTER_VERSIONS["@modelcontextprotocol/server-filesystem"],
    zod: STARTER_VERSIONS.zod,
  };
  for (const pkg of STARTER_PACKAGES) dependencies[pkg] = version;
  return {
    name,
    version: "0.1.0",
    private: true,
    type: "module",
    scripts: {
      build: "tsc",
      start: "tsc && node dist/src/main.js",
      test: "tsc && node --test dist/test/agent.test.js",
    },
    engines: { node: ">=20.11" },
    dependencies: Object.fromEntries(
      Object.entries(dependencies).sort(([a], [b]) => a.localeCompare(b)),
    ),
    devDependencies: {
      "@types/node": STARTER_VERSIONS["@types/node"],
      typescript: STARTER_VERSIONS.typescript,
    },
  };
}

/** npm's rule for a package name (lower case, URL-safe, at most 214 characters). */
export function isValidPackageName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= 214 &&
    /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/.test(name)
  );
}

/** A package name made from a folder name: `My Agent!` → `my-agent`. */
export function packageNameFrom(folder: string): string {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, "-")
    .replace(/^[-._~]+|-+$/g, "");
  return name || "my-agent";
}

import { isPlainObject } from "@pseudoclaude/core/plugin";
import { MAX_SKILL_BYTES, MAX_SKILL_RESOURCES } from "./skills-extension.js";

/** One file of a listed skill: where to read it, and what its bytes must be. */
export interface McpSkillResource {
  uri: string;
  /** Relative to the skill's root (`SKILL.md`, `references/FORMS.md`). */
  path: string;
  /** `sha256:<64 lowercase hex>`. */
  digest: string;
  size: number;
}

/** A `skills/list` entry that passed the checks: the manifest a load is verified against. */
export interface McpSkillEntry {
  /** Its skill path (`acme/billing/refunds`; another scheme's is prefixed with the scheme). */
  key: string;
  /** Its SKILL.md's URI. */
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: McpSkillResource[];
}

export type ParsedSkillEntry = { ok: true; entry: McpSkillEntry } | { ok: false; problem: string };

const SKILL_FILE = "SKILL.md";
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * Check one `skills/list` entry against SEP-2640 before anything of it is offered: a SKILL.md
 * URI whose last skill-path segment is the front matter's name, front matter with a name and a
 * description, and a complete `resources` manifest (each file once, inside the skill, with a
 * well-formed digest and a size) within the spec's limits. An entry that fails is not loadable;
 * `resources: "dynamic"` cannot be verified, so it is declined too (the spec lets hosts).
 */
export function parseSkillEntry(raw: unknown): ParsedSkillEntry {
  const fail = (problem: string): ParsedSkillEntry => ({ ok: false, problem });
  if (!isPlainObject(raw)) return fail("the entry is not an object");
  const uri = raw.uri;
  if (typeof uri !== "string") return fail("the entry has no uri");
  const scheme = uri.indexOf("://");
  if (scheme <= 0 || !uri.endsWith(`/${SKILL_FILE}`))
    return fail(`${uri} is not the URI of a SKILL.md`);
  const root = uri.slice(0, -SKILL_FILE.length - 1);
  const skillPath = root.slice(scheme + 3);
  const segments = skillPath.split("/");
  if (skillPath === "" || segments.some((segment) => segment === "" || segment === ".."))
    return fail(`${uri} has no usable skill path`);
  const frontmatter = raw.frontmatter;
  if (!isPlainObject(frontmatter)) return fail(`${uri}: the entry has no frontmatter object`);
  if (typeof frontmatter.name !== "string" || typeof frontmatter.description !== "string")
    return fail(`${uri}: the entry's frontmatter needs a text name and description`);
  const last = segments.at(-1);
  if (last !== frontmatter.name)
    return fail(
      `${uri}: the last segment of its path ("${last}") is not its front matter's name ("${frontmatter.name}")`,
    );
  if (raw.resources === "dynamic")
    return fail(`${uri}: its files are "dynamic" (no digests), so they cannot be verified`);
  if (!Array.isArray(raw.resources))
    return fail(`${uri}: the entry has no resources list (every file with its digest and size)`);
  if (raw.resources.length > MAX_SKILL_RESOURCES)
    return fail(`${uri}: ${raw.resources.length} files, over the limit of ${MAX_SKILL_RESOURCES}`);
  const resources: McpSkillResource[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (const [index, file] of raw.resources.entries()) {
    const at = `${uri}: resources[${index}]`;
    if (!isPlainObject(file) || typeof file.uri !== "string") return fail(`${at} has no uri`);
    if (
      !file.uri.startsWith(`${root}/`) ||
      file.uri
        .slice(root.length + 1)
        .split("/")
        .includes("..")
    )
      return fail(`${at} (${file.uri}) is outside the skill's folder ${root}`);
    if (seen.has(file.uri)) return fail(`${at} lists ${file.uri} a second time`);
    if (typeof file.digest !== "string" || !DIGEST.test(file.digest))
      return fail(`${at} (${file.uri}) has no digest of the form sha256:<64 lowercase hex>`);
    if (typeof file.size !== "number" || !Number.isSafeInteger(file.size) || file.size < 0)
      return fail(`${at} (${file.uri}) has no size in bytes`);
    seen.add(file.uri);
    total += file.size;
    resources.push({
      uri: file.uri,
      path: file.uri.slice(root.length + 1),
      digest: file.digest,
      size: file.size,
    });
  }
  if (!seen.has(uri)) return fail(`${uri}: its resources do not list the SKILL.md itself`);
  if (total > MAX_SKILL_BYTES)
    return fail(`${uri}: its files add up to ${total} bytes, over the limit of ${MAX_SKILL_BYTES}`);
  const schemeName = uri.slice(0, scheme);
  const key = schemeName === "skill" ? skillPath : `${schemeName}/${skillPath}`;
  return { ok: true, entry: { key, uri, frontmatter, resources } };
}

import { createHash } from "node:crypto";

/** The rule providers impose on tool names (OpenAI and Anthropic agree on it). */
export const PROVIDER_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;
const HASH_LENGTH = 8;

export function fullToolName(server: string, remoteName: string): string {
  return `mcp__${server}__${remoteName}`;
}

export interface NamedTool {
  remoteName: string;
  localName: string;
  /** Why the local name differs from `mcp__<server>__<remote>`, if it does. */
  renamed?: string;
}

/**
 * Local names for a server's tools. Valid names are kept; others are made valid
 * deterministically (invalid characters become `_`, over-long names are cut and get a stable
 * hash of the original), and a made-up name that would collide gets the hash too. Names are
 * assigned valid-first, then in sorted order, so the result never depends on list order.
 */
export function assignLocalNames(
  server: string,
  remoteNames: readonly string[],
  taken: ReadonlySet<string> = new Set(),
): NamedTool[] {
  const used = new Set(taken);
  const result = new Map<string, NamedTool>();
  const needsWork: string[] = [];
  for (const remoteName of remoteNames) {
    const full = fullToolName(server, remoteName);
    if (PROVIDER_TOOL_NAME.test(full) && !used.has(full)) {
      used.add(full);
      result.set(remoteName, { remoteName, localName: full });
    } else {
      needsWork.push(remoteName);
    }
  }
  for (const remoteName of [...needsWork].sort()) {
    const full = fullToolName(server, remoteName);
    const cleaned = full.replace(/[^a-zA-Z0-9_-]/g, "_");
    let localName =
      cleaned.length <= MAX_LENGTH && !used.has(cleaned) ? cleaned : withHash(cleaned, full);
    if (used.has(localName))
      localName = withHash(cleaned, `${full}\u0000${remoteNames.indexOf(remoteName)}`);
    used.add(localName);
    const reasons: string[] = [];
    if (cleaned !== full) reasons.push("invalid characters replaced with _");
    if (cleaned.length > MAX_LENGTH)
      reasons.push(`longer than ${MAX_LENGTH} characters, shortened with a hash`);
    if (reasons.length === 0) reasons.push("the name was taken, a hash was added");
    result.set(remoteName, { remoteName, localName, renamed: reasons.join("; ") });
  }
  return remoteNames.map((remoteName) => result.get(remoteName)!);
}

function withHash(cleaned: string, original: string): string {
  const hash = createHash("sha256").update(original).digest("hex").slice(0, HASH_LENGTH);
  return `${cleaned.slice(0, MAX_LENGTH - HASH_LENGTH - 1)}_${hash}`;
}

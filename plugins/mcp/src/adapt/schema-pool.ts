/**
 * One object for each distinct schema of a listing: tools listed with the same input or output
 * schema share it instead of holding a parsed copy each (JSON parsing makes one per tool, its
 * strings included). Servers that generate tools, or a gateway offering many servers of one
 * kind, list the same schema many times. Lives while one listing is adapted, so the texts it
 * keys by are not kept; a schema is only shared with one of the same text, and nothing writes
 * to a definition's schema.
 */
export class SchemaPool {
  private readonly seen = new Map<string, Record<string, unknown>>();
  /** Input and output schemas each keep their own streak: a listing alternates them. */
  private readonly streaks: Record<SchemaRole, Streak> = {
    input: { misses: 0 },
    output: { misses: 0 },
  };

  shared(schema: Record<string, unknown>, role: SchemaRole = "input"): Record<string, unknown> {
    // Generated tools list one schema many times in a row. Comparing with the last of its role
    // is cheaper than serializing, and leaves no text behind for the collector (10,000 tools
    // with one schema: adapted in ~30 ms against ~42, alternated fresh processes).
    const streak = this.streaks[role];
    if (streak.last !== undefined && streak.misses < MISSES_BEFORE_GIVING_UP) {
      if (sameJson(schema, streak.last)) return streak.last;
      streak.misses += 1;
    }
    const text = JSON.stringify(schema);
    const known = this.seen.get(text);
    if (known) {
      streak.last = known;
      streak.misses = 0;
      return known;
    }
    this.seen.set(text, schema);
    streak.last = schema;
    return schema;
  }
}

/** What a schema is to its tool. */
export type SchemaRole = "input" | "output";

/**
 * The schema a role's last tool turned out to have, and how many tools in a row since have
 * not had it.
 */
interface Streak {
  last?: Record<string, unknown>;
  misses: number;
}

/** A listing of distinct schemas soon stops paying for the comparison. */
const MISSES_BEFORE_GIVING_UP = 16;

/**
 * Whether two values parsed from JSON have the same text: the same keys in the same order and
 * the same values. Key order counts, as in the text: a tool's schema reaches the model as
 * written.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!sameJson(a[index], b[index])) return false;
    return true;
  }
  const keys = Object.keys(a);
  const otherKeys = Object.keys(b);
  if (keys.length !== otherKeys.length) return false;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    if (key !== otherKeys[index]) return false;
    if (!sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
      return false;
  }
  return true;
}

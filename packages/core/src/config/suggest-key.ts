/**
 * The known key a misspelt one most likely meant (`alow` -> `allow`), or undefined when none
 * is close: at most two edits, and fewer than half the key's letters.
 */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  const lower = key.toLowerCase();
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const limit = Math.min(2, Math.floor(key.length / 2));
  return bestDistance > 0 && bestDistance <= limit ? best : undefined;
}

/** ` (did you mean `allow`?)`, or nothing. */
export function didYouMean(key: string, known: readonly string[]): string {
  const suggestion = suggestKey(key, known);
  return suggestion ? ` (did you mean \`${suggestion}\`?)` : "";
}

/** Levenshtein distance with adjacent swaps (`aollw` is one edit from `allow`). */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows[i] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[i]![j] = j;
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = value;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * Edit distance, case-insensitive: insert, delete, substitute and swap two neighbours
 * (`opne` → `open`) cost 1 each (Levenshtein with transpositions, optimal string alignment).
 */
export function levenshtein(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  if (s === t) return 0;
  let before: number[] = [];
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        d = Math.min(d, (before[j - 2] as number) + 1);
      cur[j] = d;
    }
    before = prev;
    prev = cur;
  }
  return prev[t.length] as number;
}

/**
 * The candidate closest to a misspelt name, if any is close enough to be a likely typo
 * (distance at most a third of the name's length, at least 1; ties go to the first candidate).
 *
 * @example
 * suggest('requestr', ['requester', 'assignee']) // 'requester'
 * suggest('xyz', ['requester']) // undefined
 */
export function suggest(name: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    if (c === name) continue;
    // Cheap reject before the quadratic distance: lengths alone already differ too much.
    if (Math.abs(c.length - name.length) > limit) continue;
    const d = levenshtein(name, c);
    if (d <= limit && d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

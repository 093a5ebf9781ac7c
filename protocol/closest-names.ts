// "Did you mean": the names within a typo of what was written. A model that writes `projcet`
// or a user who writes `alcie` is better answered with the name they meant than with a list to
// search. Used for a tool's argument names (tools.ts) and, in the tracker's store, for people
// (lib/store/state/people.ts): one rule for what a typo is, in one place.

/** Names compared by their first characters only: a typo is in a name, not in a page of text. */
export const COMPARED_MAX = 64;

/** How many edits a typo of `wanted` may hold: a third of its letters, at least 2. */
export function typoAllowance(wanted: string): number {
  return Math.max(2, Math.floor(wanted.length / 3));
}

/**
 * How far `candidate` is from `wanted` read as a typo of it: 1 when the candidate starts with
 * it (a name begun), else Levenshtein's distance; Infinity when the lengths alone put it past
 * `allowed` (most candidates end there, without the distance's table).
 */
export function typoDistance(wanted: string, candidate: string, allowed: number): number {
  if (wanted.length >= 2 && candidate.startsWith(wanted)) return 1;
  if (Math.abs(candidate.length - wanted.length) > allowed) return Infinity;
  return editDistance(wanted, candidate);
}

/** Up to `max` of `candidates` within a typo of `wanted`, closest first, then in their order. */
export function closestNames(wanted: string, candidates: readonly string[], max: number): string[] {
  const compared = wanted.slice(0, COMPARED_MAX);
  const allowed = typoAllowance(compared);
  const scored: Array<{ name: string; distance: number }> = [];
  for (const name of candidates) {
    const distance = typoDistance(compared, name.slice(0, COMPARED_MAX), allowed);
    if (distance <= allowed) scored.push({ name, distance });
  }
  // Array.prototype.sort is stable: equally close names keep the candidates' order.
  scored.sort((a, b) => a.distance - b.distance);
  return scored.slice(0, max).map((entry) => entry.name);
}

/** Levenshtein's distance: the fewest single-character insertions, deletions and replacements. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const replace = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(replace, (previous[j] as number) + 1, (current[j - 1] as number) + 1));
    }
    previous = current;
  }
  return previous[b.length] as number;
}

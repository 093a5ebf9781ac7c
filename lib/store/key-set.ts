// Sets of issue keys made from the indexes' sets without copying them. A union or an
// intersection answers what a set does (how many keys, whether a key is in, each key once) by
// asking the sets it is made of, so `priority IN (P0, P1) AND sprint IN openSprints()` counts
// its matches with one walk of its smallest side and never builds a set of them.
//
// They read the indexes' sets as they are now: use one within the query that made it, never
// keep it past a change to the store.

/** What a query needs of a set of keys. A ReadonlySet<string> is one. */
export interface KeySet {
  readonly size: number;
  has(key: string): boolean;
  [Symbol.iterator](): Iterator<string>;
}

/** Whether an issue, by its key, is in. */
export type KeyTest = (key: string) => boolean;

export const NO_KEYS: KeySet = new Set<string>();

/** The keys in any of `sets`; `disjoint` when no key is in two of them (values of one field), so the size is a sum. */
export function unionOf(sets: readonly KeySet[], disjoint: boolean): KeySet {
  if (sets.length === 0) return NO_KEYS;
  if (sets.length === 1) return sets[0] as KeySet;
  return new KeyUnion(sets, disjoint);
}

class KeyUnion implements KeySet {
  private counted: number | null = null;
  constructor(
    private readonly sets: readonly KeySet[],
    private readonly disjoint: boolean,
  ) {}

  get size(): number {
    if (this.counted !== null) return this.counted;
    let count = 0;
    if (this.disjoint) for (const set of this.sets) count += set.size;
    else this.each(() => (count += 1));
    return (this.counted = count);
  }

  has(key: string): boolean {
    for (const set of this.sets) if (set.has(key)) return true;
    return false;
  }

  /** A key in two sets comes from the first of them only. */
  *[Symbol.iterator](): Iterator<string> {
    for (const [index, set] of this.sets.entries()) {
      for (const key of set) if (this.disjoint || !this.inOneBefore(key, index)) yield key;
    }
  }

  /** The same walk without a generator's cost per key: what counting and an intersection's walk use. */
  each(visit: (key: string) => void): void {
    for (const [index, set] of this.sets.entries()) {
      eachKey(set, (key) => {
        if (this.disjoint || !this.inOneBefore(key, index)) visit(key);
      });
    }
  }

  private inOneBefore(key: string, index: number): boolean {
    for (let before = 0; before < index; before++) if ((this.sets[before] as KeySet).has(key)) return true;
    return false;
  }
}

/** The keys of `driver` that pass every test: the driver should be the smallest side, since each of its keys is tested. */
export function intersectionOf(driver: KeySet, tests: readonly KeyTest[]): KeySet {
  return tests.length === 0 ? driver : new KeyIntersection(driver, tests);
}

/** Up to this many keys of an intersection are kept when it is counted: a few matches are then walked again for free. */
const KEPT_WHEN_COUNTED = 1_024;

class KeyIntersection implements KeySet {
  private counted: number | null = null;
  /** The keys, when counting found at most KEPT_WHEN_COUNTED. */
  private kept: string[] | null = null;
  constructor(
    private readonly driver: KeySet,
    private readonly tests: readonly KeyTest[],
  ) {}

  get size(): number {
    if (this.counted !== null) return this.counted;
    let count = 0;
    const kept: string[] = [];
    this.each((key) => {
      count += 1;
      if (count <= KEPT_WHEN_COUNTED) kept.push(key);
    });
    if (count <= KEPT_WHEN_COUNTED) this.kept = kept;
    return (this.counted = count);
  }

  has(key: string): boolean {
    return this.driver.has(key) && this.passes(key);
  }

  *[Symbol.iterator](): Iterator<string> {
    if (this.kept !== null) yield* this.kept;
    else for (const key of this.driver) if (this.passes(key)) yield key;
  }

  each(visit: (key: string) => void): void {
    if (this.kept !== null) this.kept.forEach((key) => visit(key));
    else
      eachKey(this.driver, (key) => {
        if (this.passes(key)) visit(key);
      });
  }

  private passes(key: string): boolean {
    for (const test of this.tests) if (!test(key)) return false;
    return true;
  }
}

/** Visits each key of `set`, through `each` for the sets of this file. */
export function eachKey(set: KeySet, visit: (key: string) => void): void {
  if (set instanceof KeyUnion || set instanceof KeyIntersection) set.each(visit);
  else for (const key of set) visit(key);
}

/** The keys of `sets` (a union) as one test. */
export function inAny(sets: readonly KeySet[]): KeyTest {
  if (sets.length === 1) {
    const only = sets[0] as KeySet;
    return (key) => only.has(key);
  }
  return (key) => {
    for (const set of sets) if (set.has(key)) return true;
    return false;
  };
}

// Sets of issue keys, for the code that walks keys: the evaluator's candidates (jql/plan.ts),
// the text search of search_issues (queries.ts), walks in key order (key-order.ts).
//
// The indexes keep ids, not keys (id-set.ts); a KeySet made from them here asks the issue
// table for a key's id, and reads the index's set as it is now: use one within the query that
// made it, never keep it past a change to the store.
import { countBits, eachBit, hasBit, type Bits, type IdSet } from './id-set.js';
import type { IssueTable } from '../state/issue-table.js';

/** What a query needs of a set of keys. A ReadonlySet<string> is one. */
export interface KeySet {
  readonly size: number;
  has(key: string): boolean;
  [Symbol.iterator](): Iterator<string>;
}

export const NO_KEYS: KeySet = new Set<string>();

/** What IdKeys needs of a set of ids: an IdSet is one. */
interface Ids {
  readonly size: number;
  has(id: number): boolean;
  forEach(visit: (id: number) => void): void;
}

/** The keys of an index's set of ids. */
export function keysOfIds(issues: IssueTable, ids: IdSet): KeySet {
  return new IdKeys(issues, ids);
}

/** The keys of a query's bitmap. */
export function keysOfBits(issues: IssueTable, bits: Bits): KeySet {
  const size = countBits(bits);
  return new IdKeys(issues, { size, has: (id) => hasBit(bits, id), forEach: (visit) => eachBit(bits, visit) });
}

class IdKeys implements KeySet {
  constructor(
    private readonly issues: IssueTable,
    private readonly ids: Ids,
  ) {}

  get size(): number {
    return this.ids.size;
  }

  has(key: string): boolean {
    const id = this.issues.idOf(key);
    return id !== undefined && this.ids.has(id);
  }

  *[Symbol.iterator](): Iterator<string> {
    const ids: number[] = [];
    this.ids.forEach((id) => ids.push(id));
    for (const id of ids) yield this.issues.keyAt(id);
  }

  /** The same walk without a generator's cost per key. */
  each(visit: (key: string) => void): void {
    this.ids.forEach((id) => visit(this.issues.keyAt(id)));
  }
}

/** Visits each key of `set`. */
export function eachKey(set: KeySet, visit: (key: string) => void): void {
  if (set instanceof IdKeys) set.each(visit);
  else for (const key of set) visit(key);
}

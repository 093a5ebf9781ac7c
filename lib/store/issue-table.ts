// The state's issues, each with its comment log and its history, read on first use.
//
// After a replay every issue is here as an object. After an open from a snapshot
// (journal-snapshot.ts) an issue is only a slot number until someone asks for it: the
// snapshot file keeps its text, and the first get() reads, parses and keeps it. Opening
// then costs one Map entry per issue instead of a parse and an object per issue.
//
// It answers like the Map it replaces (get, has, values, keys, size) in the same order:
// the order issues were created, which is also the order a snapshot keeps them in.
import type { HistoryEntry } from './history.js';
import type { Comment, Issue } from './schema.js';

/** One issue as the state keeps it: its newest snapshot, all its comments, its changes. */
export interface IssueEntry {
  issue: Issue;
  /** Append-only and never handed out: an issue snapshot sees the first n of it (apply.ts). */
  readonly comments: Comment[];
  /** Oldest first (history.ts); empty when the issue never changed. */
  readonly history: HistoryEntry[];
}

/** Where unread issues come from: a snapshot file, by slot. */
export interface IssueSource {
  /** Reads the slot's issue; throws a StoreFileError if the file no longer holds it. */
  read(slot: number, key: string): IssueEntry;
}

export class IssueTable {
  readonly #entries = new Map<string, IssueEntry | number>();
  #source: IssueSource | null = null;

  /** Issues `keys[i]` at slot i of `source`, in creation order; the table must be empty. */
  static fromSource(keys: readonly string[], source: IssueSource): IssueTable {
    const table = new IssueTable();
    table.#source = source;
    for (let slot = 0; slot < keys.length; slot++) table.#entries.set(keys[slot] as string, slot);
    return table;
  }

  get size(): number {
    return this.#entries.size;
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  get(key: string): Issue | undefined {
    return this.entry(key)?.issue;
  }

  /** The issue with its comment log and history, read from the source if this is its first use. */
  entry(key: string): IssueEntry | undefined {
    const found = this.#entries.get(key);
    if (typeof found !== 'number') return found;
    const entry = (this.#source as IssueSource).read(found, key);
    this.#entries.set(key, entry);
    return entry;
  }

  /** The slot of an issue not read yet (null once read): lets a new snapshot copy its bytes unparsed. */
  unreadSlot(key: string): number | null {
    const found = this.#entries.get(key);
    return typeof found === 'number' ? found : null;
  }

  keys(): IterableIterator<string> {
    return this.#entries.keys();
  }

  *values(): IterableIterator<Issue> {
    for (const key of this.#entries.keys()) yield (this.entry(key) as IssueEntry).issue;
  }

  /** A new issue, with the comments it was created with. */
  add(issue: Issue, comments: Comment[]): void {
    this.#entries.set(issue.key, { issue, comments, history: [] });
  }

  /** The issue's next snapshot; the issue exists. */
  replace(issue: Issue): void {
    (this.entry(issue.key) as IssueEntry).issue = issue;
  }
}

// The state's issues, each with its comment log and its history, read on first use.
//
// After a replay every issue is here as an object. After an open from a snapshot
// (journal-snapshot.ts) an issue is only a slot number until someone asks for it: the
// snapshot file keeps its text, and the first get() reads, parses and keeps it. Opening
// then costs one Map entry per issue instead of a parse and an object per issue.
//
// It answers like the Map it replaces (get, has, values, keys, size) in the same order:
// the order issues were created, which is also the order a snapshot keeps them in. An
// issue's place in that order is its id (idOf, keyAt): the indexes keep sets of ids
// (id-set.ts), and a snapshot's slot of an issue is its id.
import type { Comment, Issue } from '../model/schema.js';

/** One change to an issue, as its history keeps it (history.ts). */
export interface HistoryEntry {
  /** The record's seq; null for the creation, whose record the state does not keep. */
  readonly seq: number | null;
  readonly at: string;
  /** Who made the change; null for records written before records said so. */
  readonly by: string | null;
  /** The record type without its `issue.` prefix: status_changed, commented... */
  readonly type: string;
  readonly change: string;
}

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
  /** The same for a large issue, read a piece a turn; null when it is small enough to read at once. */
  readInTurns(slot: number, key: string): Promise<IssueEntry> | null;
}

export class IssueTable {
  readonly #ids = new Map<string, number>();
  readonly #keys: string[] = [];
  /** By id: the entry once read or made here; undefined while only its slot in the source has it. */
  readonly #entries: (IssueEntry | undefined)[] = [];
  #source: IssueSource | null = null;
  /** Issues being read from the source a piece a turn, by id (readInTurns). */
  readonly #reading = new Map<number, Promise<void>>();
  /** Ids of the source's issues replaced since the table was made from it (saved-indexes.ts). */
  readonly #changedSinceSource = new Set<number>();

  /** Issues `keys[i]` at slot i of `source`, in creation order; the table must be empty. */
  static fromSource(keys: readonly string[], source: IssueSource): IssueTable {
    const table = new IssueTable();
    table.#source = source;
    for (let slot = 0; slot < keys.length; slot++) {
      table.#ids.set(keys[slot] as string, slot);
      table.#keys.push(keys[slot] as string);
    }
    table.#entries.length = keys.length;
    return table;
  }

  get size(): number {
    return this.#keys.length;
  }

  has(key: string): boolean {
    return this.#ids.has(key);
  }

  get(key: string): Issue | undefined {
    return this.entry(key)?.issue;
  }

  /** The issue's id: its place in creation order. */
  idOf(key: string): number | undefined {
    return this.#ids.get(key);
  }

  /** The key of the issue with this id (an id below size). */
  keyAt(id: number): string {
    return this.#keys[id] as string;
  }

  /** The issue with this id (an id below size). */
  at(id: number): Issue {
    return this.#entryAt(id).issue;
  }

  /** The issue with its comment log and history, read from the source if this is its first use. */
  entry(key: string): IssueEntry | undefined {
    const id = this.#ids.get(key);
    return id === undefined ? undefined : this.#entryAt(id);
  }

  #entryAt(id: number): IssueEntry {
    let entry = this.#entries[id];
    if (entry === undefined) {
      entry = (this.#source as IssueSource).read(id, this.#keys[id] as string);
      this.#entries[id] = entry;
    }
    return entry;
  }

  /**
   * Reads a large issue not read yet from the source a piece a turn, so that other work runs
   * meanwhile (journal/snapshot-slot.ts); one reading however many ask. Null when there is
   * nothing to wait for: no such issue, read already, or small enough for get() to read at once.
   */
  readInTurns(key: string): Promise<void> | null {
    const id = this.#ids.get(key);
    if (id === undefined || this.#entries[id] !== undefined || this.#source === null) return null;
    let reading = this.#reading.get(id);
    if (reading === undefined) {
      const entry = this.#source.readInTurns(id, key);
      if (entry === null) return null;
      // A get() meanwhile read the issue at once, and a change may have replaced it since: that one stays.
      reading = entry.then((read) => void (this.#entries[id] ??= read)).finally(() => this.#reading.delete(id));
      this.#reading.set(id, reading);
    }
    return reading;
  }

  /** The slot of an issue not read yet (null once read): lets a new snapshot copy its bytes unparsed. */
  unreadSlot(key: string): number | null {
    const id = this.#ids.get(key);
    return id !== undefined && this.#entries[id] === undefined ? id : null;
  }

  keys(): IterableIterator<string> {
    return this.#keys.values();
  }

  *values(): IterableIterator<Issue> {
    for (let id = 0; id < this.#keys.length; id++) yield this.#entryAt(id).issue;
  }

  /** A new issue, with the comments it was created with. */
  add(issue: Issue, comments: Comment[]): void {
    this.#ids.set(issue.key, this.#keys.length);
    this.#keys.push(issue.key);
    this.#entries.push({ issue, comments, history: [] });
  }

  /** The issue's next snapshot; the issue exists. */
  replace(issue: Issue): void {
    (this.entry(issue.key) as IssueEntry).issue = issue;
    if (this.#source !== null) this.#changedSinceSource.add(this.#ids.get(issue.key) as number);
  }

  /** Ids of the issues from the source replaced since (at most one entry an issue). */
  changedSinceSource(): ReadonlySet<number> {
    return this.#changedSinceSource;
  }
}

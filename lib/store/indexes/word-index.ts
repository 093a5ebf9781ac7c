// The inverted word index: for each word of the issues' text (title, description, comments),
// the keys of the issues it occurs in. Both text searches use it: search_issues' `text` and
// the query language's `text ~ "..."`.
//
// A search word matches wherever it occurs inside the text, case-insensitively ("pay" finds
// "payment"): the meaning search_issues always had. The index keeps that meaning exactly for
// a search word made only of letters and digits: such a word can only occur inside one run of
// letters and digits of the text, which is one indexed word, so the issues containing it are
// those of the indexed words containing it (a look through the vocabulary, not the issues).
// A search word with other characters ("e-mail", "v1.2") could span two indexed words; it is
// still looked for in the text itself, among the issues the other words leave.
//
// Like the field index it is built on first use and then kept up to date by apply.ts.
import { domainError } from '../model/errors.js';
import { quote } from '../model/args.js';
import { LIMITS, type Issue } from '../model/schema.js';
import type { TrackerState } from '../state/state.js';
import { andBits, emptyBits, IdSet, type Bits } from './id-set.js';
import { keysOfBits, type KeySet } from './key-set.js';
import { eachChangeSince, indexSource, type SavedIndexes } from './saved-indexes.js';

/** Word → ids of the issues whose text contains it (id-set.ts). */
export interface WordIndex {
  readonly words: Map<string, Posting>;
  /**
   * Search word → the sets of the indexed words containing it: the look through the vocabulary,
   * kept until a word enters or leaves it (then all are forgotten), at most CONTAINING_KEPT.
   */
  readonly containing: Map<string, readonly IdSet[]>;
  /** The ids of the words loaded from a snapshot (saved-indexes.ts), null when built. */
  readonly saved: { readonly ends: Uint32Array; readonly ids: Uint32Array } | null;
}

/**
 * One word's ids: a list while the index is built, where a push costs far less than a set's
 * add, or (loaded from a snapshot) the word's place in `saved`; most words (numbers, names) are
 * never asked for. A set from the first time the word is asked for or changes (postingSet).
 */
type Posting = IdSet | number[] | number;

/** Search words whose look through the vocabulary is kept; past it the oldest goes. */
const CONTAINING_KEPT = 1_024;

const INDEXED_WORD = /[\p{L}\p{N}]+/gu;
const ONLY_LETTERS_AND_DIGITS = /^[\p{L}\p{N}]+$/u;

/**
 * The distinct lower-cased words of a search text. Both limits are checked before the work they
 * bound: the length before the text is split, the count before any issue is searched.
 */
export function searchWords(text: unknown, field = 'text'): string[] {
  if (text === undefined || text === null) return [];
  if (typeof text !== 'string') throw domainError('invalid_argument', `${field} must be a string, got ${quote(text)}.`);
  if (text.length > LIMITS.searchTextMax) {
    throw domainError(
      'invalid_argument',
      `${field} is ${text.length} characters long; the limit is ${LIMITS.searchTextMax}. Search for a few distinctive words.`,
    );
  }
  const words = new Set(
    text
      .toLowerCase()
      .split(/\s+/)
      .filter((word) => word.length > 0)
      .map((word) => withoutWildcard(word, field)),
  );
  if (words.size > LIMITS.searchWordsMax) {
    throw domainError(
      'invalid_argument',
      `${field} has ${words.size} different words; the limit is ${LIMITS.searchWordsMax}. Search for a few distinctive words.`,
    );
  }
  return [...words];
}

/**
 * A search word already matches inside longer words ("refund" finds "refunds"), so a `*` at
 * its start or end, Jira's wildcard, asks for nothing more and is taken off: `refund*` finds
 * what `refund` finds, never a silent nothing. A `*` inside a word, or alone, is refused.
 */
function withoutWildcard(word: string, field: string): string {
  if (!word.includes('*')) return word;
  const bare = word.replace(/^\*+|\*+$/g, '');
  if (bare.length === 0) throw domainError('invalid_argument', `${field}: '*' alone matches every issue; leave it out.`);
  if (bare.includes('*')) {
    throw domainError(
      'invalid_argument',
      `${field}: '${word}' has a * inside it, which is not supported. Words match inside longer words (pay finds payment): search for its parts.`,
    );
  }
  return bare;
}

/** What the index says about some search words. */
export interface WordMatch {
  /** Keys of the issues containing every word the index can answer for; null when it can answer for none. */
  readonly keys: KeySet | null;
  /** Words the index cannot answer for: look for them in the text of the issues in `keys`. */
  readonly unindexed: readonly string[];
}

export function matchWords(state: TrackerState, words: readonly string[]): WordMatch {
  const indexable = words.filter(isIndexable);
  const unindexed = words.filter((word) => !isIndexable(word));
  if (indexable.length === 0) return { keys: null, unindexed };
  const bits = indexable.map((word) => issuesContaining(state, word)).reduce(andBits);
  return { keys: keysOfBits(state.issues, bits), unindexed };
}

/** Whether the index can answer for a search word (see the top of this file). */
export function isIndexable(word: string): boolean {
  return ONLY_LETTERS_AND_DIGITS.test(word);
}

/** The issues with an indexed word containing `word` (a union of the sets of those words), as a bitmap of ids. */
export function issuesContaining(state: TrackerState, word: string): Bits {
  const index = wordIndex(state);
  let found = index.containing.get(word);
  if (found === undefined) {
    const containing: IdSet[] = [];
    for (const indexed of index.words.keys()) if (indexed.includes(word)) containing.push(postingSet(index, indexed));
    if (index.containing.size >= CONTAINING_KEPT) index.containing.delete(index.containing.keys().next().value as string);
    index.containing.set(word, (found = containing));
  }
  const bits = emptyBits(state.issues.size);
  for (const ids of found) ids.orInto(bits);
  return bits;
}

/** Whether every word occurs in the issue's title, description or one of its comments. */
export function textContainsAll(state: TrackerState, issue: Issue, words: readonly string[]): boolean {
  const head = lowerCased(state, issue, () => `${issue.title}\n${issue.description}`);
  return words.every(
    (word) =>
      head.includes(word) || issue.comments.some((comment) => lowerCased(state, comment, () => comment.body).includes(word)),
  );
}

/** Lower-cased once per frozen issue snapshot or comment, then kept while it lives. */
export function lowerCased(state: TrackerState, owner: object, text: () => string): string {
  let lower = state.searchText.get(owner);
  if (lower === undefined) {
    lower = text().toLowerCase();
    state.searchText.set(owner, lower);
  }
  return lower;
}

/** The index, loaded from the snapshot or built now if this is its first use. */
export function wordIndex(state: TrackerState): WordIndex {
  let index = wordIndexes.get(state);
  if (index === undefined) wordIndexes.set(state, (index = savedWordIndex(state) ?? builtWordIndex(state)));
  return index;
}

/** Each state's index, made on first use: the state does not hold it, so it imports nothing from here. */
const wordIndexes = new WeakMap<TrackerState, WordIndex>();

function builtWordIndex(state: TrackerState): WordIndex {
  const index: WordIndex = { words: new Map(), containing: new Map(), saved: null };
  for (let id = 0; id < state.issues.size; id++) {
    // The issue's words one after the other: a word already listed for it ends its list.
    for (const text of textsOf(state.issues.at(id))) {
      for (const word of text.toLowerCase().match(INDEXED_WORD) ?? []) {
        const ids = index.words.get(word) as number[] | undefined;
        if (ids === undefined) index.words.set(word, [id]);
        else if (ids[ids.length - 1] !== id) ids.push(id);
      }
    }
  }
  return index;
}

/** The index as the snapshot saved it, with the issues changed since brought in; null when there is none. */
function savedWordIndex(state: TrackerState): WordIndex | null {
  const saved = indexSource(state)?.savedIndexes() ?? null;
  if (saved === null) return null;
  const { vocabulary, ends, ids } = saved.words;
  const index: WordIndex = { words: new Map(), containing: new Map(), saved: { ends, ids } };
  if (vocabulary !== '') vocabulary.split('\n').forEach((word, at) => index.words.set(word, at));
  eachChangeSince(state, saved, (id, before, after) => {
    const was = before === undefined ? new Set<string>() : wordsOfIssue(before);
    const now = wordsOfIssue(after);
    for (const word of was) if (!now.has(word)) removeOne(index, id, word);
    add(index, id, now);
  });
  return index;
}

/** The index as a snapshot keeps it (saved-indexes.ts). */
export function savedWords(state: TrackerState): SavedIndexes['words'] {
  const index = wordIndex(state);
  const postings = [...index.words.values()];
  const lists = postings.map((posting) => (typeof posting === 'number' ? null : postingIds(index, posting)));
  const ends = new Uint32Array(postings.length);
  let end = 0;
  postings.forEach((posting, at) => (ends[at] = end += lengthOf(index, posting, lists[at] ?? null)));
  const ids = new Uint32Array(end);
  postings.forEach((posting, at) => {
    const start = at === 0 ? 0 : (ends[at - 1] as number);
    const list = lists[at] ?? null;
    if (list !== null) ids.set(list, start);
    else {
      // Most words hold one or two ids: copied one by one, with no view of the saved ids made for each.
      const saved = index.saved as NonNullable<WordIndex['saved']>;
      const from = posting === 0 ? 0 : (saved.ends[(posting as number) - 1] as number);
      for (let i = start; i < (ends[at] as number); i++) ids[i] = saved.ids[from + i - start] as number;
    }
  });
  return { vocabulary: [...index.words.keys()].join('\n'), ends, ids };
}

function lengthOf(index: WordIndex, posting: Posting, list: ArrayLike<number> | null): number {
  if (list !== null) return list.length;
  const ends = (index.saved as NonNullable<WordIndex['saved']>).ends;
  return (ends[posting as number] as number) - (posting === 0 ? 0 : (ends[(posting as number) - 1] as number));
}

function postingIds(index: WordIndex, posting: Posting): ArrayLike<number> {
  if (typeof posting === 'number') {
    const saved = index.saved as NonNullable<WordIndex['saved']>;
    return saved.ids.subarray(posting === 0 ? 0 : saved.ends[posting - 1], saved.ends[posting]);
  }
  return Array.isArray(posting) ? posting : posting.toArray();
}

/** The word's ids as a set, made one now if they were still a list or a place in the saved ids. */
function postingSet(index: WordIndex, word: string): IdSet {
  const posting = index.words.get(word) as Posting;
  if (posting instanceof IdSet) return posting;
  const set = new IdSet(typeof posting === 'number' ? (postingIds(index, posting) as Uint32Array) : posting);
  index.words.set(word, set);
  return set;
}

/** Called by apply.ts for every created or replaced issue: reindexes it when its text changed. */
export function indexIssueText(state: TrackerState, before: Issue | undefined, after: Issue): void {
  const index = wordIndexes.get(state);
  if (index === undefined) return;
  const id = state.issues.idOf(after.key) as number;
  if (before === undefined) return add(index, id, wordsOfIssue(after));
  if (before.title === after.title && before.description === after.description) return;
  const was = wordsOfIssue(before);
  const now = wordsOfIssue(after);
  for (const word of was) if (!now.has(word)) removeOne(index, id, word);
  add(index, id, now);
}

/** Called by apply.ts for every added comment. */
export function indexComment(state: TrackerState, key: string, body: string): void {
  const index = wordIndexes.get(state);
  if (index !== undefined) add(index, state.issues.idOf(key) as number, wordsOf(body));
}

function wordsOfIssue(issue: Issue): Set<string> {
  const words = new Set<string>();
  for (const text of textsOf(issue)) for (const word of wordsOf(text)) words.add(word);
  return words;
}

/** The texts a search looks in. */
function textsOf(issue: Issue): string[] {
  return [`${issue.title}\n${issue.description}`, ...issue.comments.map((comment) => comment.body)];
}

function wordsOf(text: string): Set<string> {
  return new Set(text.toLowerCase().match(INDEXED_WORD) ?? []);
}

function add(index: WordIndex, id: number, words: Iterable<string>): void {
  for (const word of words) {
    if (!index.words.has(word)) {
      index.words.set(word, new IdSet());
      index.containing.clear();
    }
    postingSet(index, word).add(id);
  }
}

function removeOne(index: WordIndex, id: number, word: string): void {
  if (!index.words.has(word)) return;
  const ids = postingSet(index, word);
  ids.delete(id);
  if (ids.size === 0) {
    index.words.delete(word);
    index.containing.clear();
  }
}

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
import { domainError } from './errors.js';
import { quote } from './args.js';
import { LIMITS, type Issue } from './schema.js';
import type { TrackerState } from './state.js';
import { intersectionOf, unionOf, type KeySet } from './key-set.js';

/** Word → keys of the issues whose text contains it. */
export interface WordIndex {
  readonly words: Map<string, Posting>;
  /**
   * Search word → the sets of the indexed words containing it: the look through the vocabulary,
   * kept until a word enters or leaves it (then all are forgotten), at most CONTAINING_KEPT.
   */
  readonly containing: Map<string, readonly Set<string>[]>;
}

/**
 * One word's keys: a list while the index is built, where a push costs far less than a set's
 * add, and most words (numbers, names) are never asked for; a set from the first time the word
 * is asked for or changes (postingSet).
 */
type Posting = Set<string> | string[];

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
      .filter((word) => word.length > 0),
  );
  if (words.size > LIMITS.searchWordsMax) {
    throw domainError(
      'invalid_argument',
      `${field} has ${words.size} different words; the limit is ${LIMITS.searchWordsMax}. Search for a few distinctive words.`,
    );
  }
  return [...words];
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
  const sets = indexable.map((word) => issuesContaining(state, word)).sort((a, b) => a.size - b.size);
  const [smallest, ...others] = sets as [KeySet, ...KeySet[]];
  return {
    keys: intersectionOf(
      smallest,
      others.map((set) => (key: string) => set.has(key)),
    ),
    unindexed,
  };
}

/** Whether the index can answer for a search word (see the top of this file). */
export function isIndexable(word: string): boolean {
  return ONLY_LETTERS_AND_DIGITS.test(word);
}

/** Keys of the issues with an indexed word containing `word`: a union of the sets of those words. */
export function issuesContaining(state: TrackerState, word: string): KeySet {
  const index = wordIndex(state);
  let found = index.containing.get(word);
  if (found === undefined) {
    const containing: Set<string>[] = [];
    for (const indexed of index.words.keys()) if (indexed.includes(word)) containing.push(postingSet(index, indexed));
    if (index.containing.size >= CONTAINING_KEPT) index.containing.delete(index.containing.keys().next().value as string);
    index.containing.set(word, (found = containing));
  }
  return unionOf(found, false);
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

/** The index, built now if this is its first use. */
export function wordIndex(state: TrackerState): WordIndex {
  if (state.wordIndex !== null) return state.wordIndex;
  const index: WordIndex = { words: new Map(), containing: new Map() };
  for (const issue of state.issues.values()) {
    // The issue's words one after the other: a word already listed for it ends its list.
    const key = issue.key;
    for (const text of textsOf(issue)) {
      for (const word of text.toLowerCase().match(INDEXED_WORD) ?? []) {
        const keys = index.words.get(word) as string[] | undefined;
        if (keys === undefined) index.words.set(word, [key]);
        else if (keys[keys.length - 1] !== key) keys.push(key);
      }
    }
  }
  state.wordIndex = index;
  return index;
}

/** The word's keys as a set, made one now if they were still a list. */
function postingSet(index: WordIndex, word: string): Set<string> {
  const keys = index.words.get(word) as Posting;
  if (!Array.isArray(keys)) return keys;
  const set = new Set(keys);
  index.words.set(word, set);
  return set;
}

/** Called by apply.ts for every created or replaced issue: reindexes it when its text changed. */
export function indexIssueText(state: TrackerState, before: Issue | undefined, after: Issue): void {
  const index = state.wordIndex;
  if (index === null) return;
  if (before === undefined) return add(index, after.key, wordsOfIssue(after));
  if (before.title === after.title && before.description === after.description) return;
  const was = wordsOfIssue(before);
  const now = wordsOfIssue(after);
  for (const word of was) if (!now.has(word)) removeOne(index, after.key, word);
  add(index, after.key, now);
}

/** Called by apply.ts for every added comment. */
export function indexComment(state: TrackerState, key: string, body: string): void {
  if (state.wordIndex !== null) add(state.wordIndex, key, wordsOf(body));
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

function add(index: WordIndex, key: string, words: Iterable<string>): void {
  for (const word of words) {
    if (!index.words.has(word)) {
      index.words.set(word, new Set());
      index.containing.clear();
    }
    postingSet(index, word).add(key);
  }
}

function removeOne(index: WordIndex, key: string, word: string): void {
  if (!index.words.has(word)) return;
  const keys = postingSet(index, word);
  keys.delete(key);
  if (keys.size === 0) {
    index.words.delete(word);
    index.containing.clear();
  }
}

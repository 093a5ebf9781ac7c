// The data files the servers are benchmarked on, made through the store's own API
// (openStore + createIssue / addComment), so they are journals any version of the server
// accepts. Mutations are durable (fsync each), which is slow, so the files are cached in
// the temp folder; bump DATA_VERSION when what is generated here changes. The snapshot's format
// version is part of the name too: a snapshot of an older format is not used by the server, which
// then replays the journal at every start, and the cold starts would measure a replay.
//
// - `issues`: the demo data grown to 1,000 issues, for every latency and throughput figure.
// - `big`: the demo data plus one issue whose comments make `resources/read` of it about
//   5 MiB on the wire. Descriptions and comments are capped at 10,000 characters by the
//   store, so size comes from many full-length comments; it lives in its own file so the
//   1,000-issue searches do not scan it.
//
// Each journal is cached with the snapshot the store writes beside it at a clean close
// (`<journal>.snapshot`, lib/store/journal/journal-snapshot.ts), and each run gets a copy of both: a
// host starts a stdio server for every session, and every start after the first finds the
// snapshot its last close left. `--replay` (copyForRun's `withSnapshot`) copies the journal
// alone: the first start, which replays every record.

import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, silentLogger, type TrackerStore } from '../../lib/store/index.js';
import { SNAPSHOT_VERSION } from '../../lib/store/journal/journal-snapshot.js';

const DATA_VERSION = 3;
/** In every cached file's name: what was generated, and the snapshot format it was saved in. */
const CACHE_KEY = `v${DATA_VERSION}-snapshot${SNAPSHOT_VERSION}`;
export const CACHE_DIR = join(tmpdir(), 'mcp-by-hand-bench');
export const ISSUE_COUNT = 1_000;
/** 520 comments of 10,000 characters: the read is just over 5 MiB. */
const BIG_COMMENTS = 520;
const COMMENT_LENGTH = 10_000;

const WORDS = ['checkout', 'payment', 'webhook', 'latency', 'refund', 'mobile', 'search', 'cache', 'login', 'export'];
const PEOPLE = ['alice', 'bob', 'carol', 'dmitri', 'priya', 'sam'];
const PRIORITIES = ['P0', 'P1', 'P2', 'P3'];
const TYPES = ['task', 'bug', 'story'];

export interface DataFiles {
  issues: string;
  big: string;
  /** The key of the issue whose read is ~5 MiB. */
  bigKey: string;
}

export async function ensureDataFiles(log: (line: string) => void): Promise<DataFiles> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const issues = await ensureIssuesFile(log);
  let bigKey = '';
  const big = await cached(`big-${CACHE_KEY}.jsonl`, log, async (store) => {
    bigKey = await fillBig(store);
  });
  // The key is deterministic: the demo's last PROJ issue is PROJ-114, so the next is PROJ-115.
  return { issues, big, bigKey: bigKey || 'PROJ-115' };
}

/** The 1,000 issues alone (the correctness checks need no more: spec-tests/tests/bench-peers.test.ts). */
export const ensureIssuesFile = (log: (line: string) => void): Promise<string> =>
  cached(`issues-${ISSUE_COUNT}-${CACHE_KEY}.jsonl`, log, fillIssues);

/**
 * A private copy for one server process, so no run can see another's lock or changes; with
 * the snapshot beside the journal unless `withSnapshot` is false.
 */
export function copyForRun(source: string, directory: string, name: string, withSnapshot = true): string {
  const target = join(directory, name);
  copyFileSync(source, target);
  if (withSnapshot) copyFileSync(`${source}${SNAPSHOT_SUFFIX}`, `${target}${SNAPSHOT_SUFFIX}`);
  return target;
}

/** Where the store writes a journal's snapshot (lib/store/journal/journal-snapshot.ts). */
const SNAPSHOT_SUFFIX = '.snapshot';

async function cached(name: string, log: (line: string) => void, fill: (store: TrackerStore) => Promise<void>): Promise<string> {
  const path = join(CACHE_DIR, name);
  if (existsSync(path)) return path;
  log(`generating ${path} (once; cached afterwards)`);
  const partial = `${path}.partial`;
  rmSync(partial, { force: true });
  rmSync(`${partial}.lock`, { force: true });
  rmSync(`${partial}${SNAPSHOT_SUFFIX}`, { force: true });
  const store = await openStore({ path: partial, log: silentLogger, watch: false });
  try {
    // The tracker refuses a person it does not know (the people directory); the demo knows all but sam.
    for (const handle of PEOPLE) if (!knows(store, handle)) await store.savePerson({ handle });
    await fill(store);
  } finally {
    store.close();
  }
  // The snapshot first: only a complete pair is ever found in the cache.
  if (!existsSync(`${partial}${SNAPSHOT_SUFFIX}`)) throw new Error(`closing ${partial} wrote no snapshot beside it`);
  renameSync(`${partial}${SNAPSHOT_SUFFIX}`, `${path}${SNAPSHOT_SUFFIX}`);
  renameSync(partial, path);
  return path;
}

async function fillIssues(store: TrackerStore): Promise<void> {
  const existing = store.listIssues({ limit: 1 }).total;
  for (let n = existing; n < ISSUE_COUNT; n++) {
    await store.createIssue({
      project: n % 7 === 0 ? 'WEB' : 'PROJ',
      title: `Improve ${pick(WORDS, n)} handling for ${pick(WORDS, n * 7)} (${n})`,
      description: `When the ${pick(WORDS, n * 3)} service is slow, the ${pick(WORDS, n * 5)} page times out. Steps and logs attached.`,
      type: pick(TYPES, n),
      priority: pick(PRIORITIES, n),
      assignee: n % 5 === 0 ? null : pick(PEOPLE, n),
      story_points: n % 4 === 0 ? null : (n % 8) + 1,
      sprint: n % 7 === 0 ? (n % 2 === 0 ? 'WEB-S7' : null) : n % 3 === 0 ? null : pick(['PROJ-S42', 'PROJ-S43'], n),
      labels: [pick(WORDS, n), pick(WORDS, n + 1)],
    });
  }
}

async function fillBig(store: TrackerStore): Promise<string> {
  const { issue } = await store.createIssue({
    project: 'PROJ',
    title: 'An issue with a very long discussion',
    labels: ['bench'],
  });
  const line = 'The quick brown fox jumps over the lazy dog. ';
  const body = line.repeat(Math.ceil(COMMENT_LENGTH / line.length)).slice(0, COMMENT_LENGTH - 8);
  for (let i = 0; i < BIG_COMMENTS; i++) {
    await store.addComment(issue.key, { body: `${String(i).padStart(6, '0')}: ${body}`, author: pick(PEOPLE, i) });
  }
  return issue.key;
}

const knows = (store: TrackerStore, handle: string): boolean =>
  store.listPeople().people.some((person) => person.handle === handle);

function pick<T>(items: readonly T[], n: number): T {
  return items[n % items.length] as T;
}

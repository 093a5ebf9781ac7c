// Team mode: the tracker's store on PostgreSQL. This folder is bundled on its own, with the
// `pg` client library, into dist/mcp-tracker-postgres.mjs, which dist/mcp-tracker.mjs loads
// only when --store names a database (see store-loader.ts); the default bundle carries none of it.
import fs from 'node:fs';
import { closeJournal, openJournal } from '../journal/journal.js';
import type { Logger } from '../model/log.js';
import { openReplica } from './replica.js';
import type { JournalRecord } from '../model/record-schema.js';
import { storeOn, type StoreOptions } from '../store.js';
import type { TrackerStore } from '../store-api.js';
import { parseRecordLine } from '../journal/journal-format.js';
import { openPgLog } from './pg-log.js';
import { searchBySql } from './search-pushdown.js';

export interface PostgresStoreOptions extends StoreOptions {
  readonly url: string;
  readonly shown: string;
  readonly maxConnections?: number;
  readonly timeoutMs?: number;
  /** An empty database gets the demo data. Default: true. */
  readonly seed?: boolean;
  /** A write that would take the records past this many bytes is refused (replica.ts). Default: LIMITS.maxJournalBytes. */
  readonly maxBytes?: number;
}

/** As pg-log.ts: how long a search waits for its statements and for this instance to read what they saw. */
const DEFAULT_TIMEOUT_MS = 5_000;

/** Opens (migrating if needed, seeding an empty database with the demo data) and follows the database. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<TrackerStore> {
  const log = await openPgLog(options);
  try {
    const backend = await openReplica(log, {
      log: options.log,
      now: options.now ?? (() => new Date()),
      seed: options.seed,
      maxBytes: options.maxBytes,
    });
    return storeOn(backend, options, searchBySql(log, backend, options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.log));
  } catch (error) {
    await log.close().catch(() => undefined);
    throw error;
  }
}

/** `mcp-tracker migrate`: applies missing migrations, changes nothing else. */
export async function migrateDatabase(url: string, shown: string, log: Logger): Promise<void> {
  const opened = await openPgLog({ url, shown, log });
  await opened.close();
}

/** Records copied per transaction by copyJournal. */
const COPY_BATCH = 500;

/**
 * `mcp-tracker copy-journal FILE`: copies a journal file's records into an empty database,
 * in batches, each one transaction. The journal is checked by opening it first, so a file
 * that would not open is not half copied; a database that already holds records is refused.
 */
export async function copyJournal(file: string, url: string, shown: string, log: Logger): Promise<number> {
  closeJournal(openJournal(file, log).journal);
  const records = readRecords(file);
  const target = await openPgLog({ url, shown, log });
  try {
    if ((await target.readSince(0, 1)).length > 0) {
      throw new Error(`${shown} already holds tracker records; copy into an empty database (nothing was copied)`);
    }
    for (let start = 0; start < records.length; start += COPY_BATCH) {
      const taken = await target.append(start, records.slice(start, start + COPY_BATCH));
      if (!taken) throw new Error(`another writer appended to ${shown} during the copy; records up to ${start} were copied`);
    }
    return records.length;
  } finally {
    await target.close();
  }
}

/** The records of a journal that opened cleanly: every complete line after the header, skipped repeats left out. */
function readRecords(file: string): JournalRecord[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n').slice(1, -1);
  const records: JournalRecord[] = [];
  for (const [index, text] of lines.entries()) {
    const record = parseRecordLine(text, file, index + 2);
    if (record.seq === records.length + 1) records.push(record);
  }
  return records;
}

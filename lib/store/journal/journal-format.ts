// The journal's text format: what one line is, and how to read one back.
//
//   line 1:  {"format":"mcp-tracker","version":1,"created_at":"2025-06-01T09:00:00.000Z"}
//   line 2+: {"seq":1,"at":"...","type":"project.created","project":{...}}
//
// One JSON value per line, each ending in "\n". A line without its "\n" was
// never acknowledged (a crash cut the write short); see journal-file.ts.
import { storeFileError, type StoreFileError } from '../model/errors.js';
import { checkJournalHeader, checkJournalRecord, isPlainObject } from '../model/record-check.js';
import { JOURNAL_FORMAT, JOURNAL_VERSION, LIMITS } from '../model/schema.js';
import type { JournalHeader, JournalRecord } from '../model/record-schema.js';

const REPAIR_HINT =
  'The file was left unchanged. Restore it from a backup or repair that line by hand, then restart; to start over with demo data, move the file away.';

export function encodeHeader(createdAt: string): string {
  const header: JournalHeader = { format: JOURNAL_FORMAT, version: JOURNAL_VERSION, created_at: createdAt };
  return `${JSON.stringify(header)}\n`;
}

/** Throws a StoreFileError for anything but a version-1 mcp-tracker header. */
export function parseHeader(text: string, file: string): JournalHeader {
  const value = parseJson(text);
  if (!isPlainObject(value) || value['format'] !== JOURNAL_FORMAT) {
    throw notAJournal(file, 'The first line is not an mcp-tracker header');
  }
  // Checked before the full schema, so a newer header that changed shape is
  // still recognised as newer rather than reported as corrupt.
  const version = value['version'];
  if (typeof version === 'number' && version > JOURNAL_VERSION) {
    throw storeFileError(
      'newer_version',
      file,
      1,
      `This data file was written by a newer mcp-tracker (format version ${version}); this build reads version ${JOURNAL_VERSION}. Upgrade mcp-tracker to open it. The file was left unchanged.`,
    );
  }
  if (checkJournalHeader(value) !== null) throw corruptLine(file, 1, 'the header is malformed');
  return value as JournalHeader;
}

/** The line ends in "\n"; the record is checked with the fast hand check, and its size, before it is written. */
export function encodeRecord(record: JournalRecord): string {
  const problem = checkJournalRecord(record);
  // Never write what we could not read back: that would brick the file.
  if (problem !== null) throw new Error(`refusing to write an invalid journal record (${problem})`);
  const json = JSON.stringify(record);
  const bytes = Buffer.byteLength(json);
  if (bytes > LIMITS.maxRecordBytes) {
    throw new Error(`refusing to write a journal record of ${bytes} bytes (the limit is ${LIMITS.maxRecordBytes})`);
  }
  return `${json}\n`;
}

/** Parses and validates one complete line; throws a StoreFileError naming the line. */
export function parseRecordLine(text: string, file: string, line: number): JournalRecord {
  const value = parseJson(text);
  if (value === undefined) throw corruptLine(file, line, 'it is not valid JSON');
  const problem = checkJournalRecord(value);
  if (problem !== null) throw corruptLine(file, line, problem);
  return value as JournalRecord;
}

/** A record that parsed but does not fit the state before it (see apply.ts). */
export function inconsistentLine(file: string, line: number, reason: string): StoreFileError {
  return corruptLine(file, line, reason);
}

export function corruptLine(file: string, line: number, reason: string): StoreFileError {
  return storeFileError('corrupt', file, line, `Line ${line} is not a valid journal record: ${reason}. ${REPAIR_HINT}`);
}

export function notAJournal(file: string, reason: string): StoreFileError {
  return storeFileError(
    'not_a_journal',
    file,
    1,
    `${reason}, so this is not an mcp-tracker data file. It was left unchanged. Point --data (or MCP_TRACKER_DATA) at another path, or move this file away to start with demo data.`,
  );
}

/** undefined when the text is not JSON (JSON itself has no undefined). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

// One issue's slot in the snapshot's issues section (journal-snapshot.ts): how it is written,
// and how it is read back, at once or a piece a turn.
//
// A slot is lines, each one JSON value and a "\n":
//   [fields, n]        the issue without its comments (fieldsOf), and how many comments follow
//   n comment lines    one comment each, oldest first
//   history lines      one history entry each, oldest first, to the slot's end
// JSON.stringify never writes a raw line break (one inside a string is written `\n`), and no
// byte of a multi-byte UTF-8 character is 0x0a, so a slot splits into its values at every
// 0x0a byte without parsing anything.
//
// Why lines rather than one JSON text: an issue at the API's limits (1,000 comments of 10,000
// characters) is a 10 MB slot. Read, decoded and parsed in one piece, it held the event loop
// 200-600 ms on a loaded machine and made 10 MB of strings at once, which the next collections
// carried into the old generation (issue 30). In lines, `readSlotInTurns` reads, decodes and
// parses PIECE_BYTES at a time, taking turns with other such work (model/turns.ts).
import { fieldsOf, restoreIssue } from '../changes/issue-snapshot.js';
import type { Comment, Issue } from '../model/schema.js';
import { nextTurn } from '../model/turns.js';
import type { HistoryEntry, IssueEntry } from '../state/issue-table.js';

/**
 * What one turn reads and parses: a few milliseconds on a quiet machine. A slot no larger is
 * read at once. A line longer than a piece (a description at its limit) is read whole.
 */
export const PIECE_BYTES = 128 * 1024;

/** The slot's bytes for an issue as the state keeps it. */
export function slotBytes(entry: IssueEntry): Buffer {
  const comments = entry.issue.comments;
  const lines = [JSON.stringify([fieldsOf(entry.issue), comments.length])];
  for (const comment of comments) lines.push(JSON.stringify(comment));
  for (const change of entry.history) lines.push(JSON.stringify(change));
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** The values of a slot, gathered a line at a time (in one piece, or over turns). */
class SlotParse {
  #fields: Issue | null = null;
  #commentCount = 0;
  readonly #comments: Comment[] = [];
  readonly #history: HistoryEntry[] = [];

  /** Parses the lines of `text`, each ended by "\n"; false if one is not what a slot holds. */
  addLines(text: string): boolean {
    for (let from = 0; from < text.length;) {
      const end = text.indexOf('\n', from);
      if (end < 0) return false;
      if (!this.#add(text.slice(from, end))) return false;
      from = end + 1;
    }
    return true;
  }

  #add(line: string): boolean {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return false;
    }
    if (this.#fields === null) {
      if (!Array.isArray(value) || typeof value[0] !== 'object' || value[0] === null || !Number.isSafeInteger(value[1]))
        return false;
      [this.#fields, this.#commentCount] = value as [Issue, number];
    } else if (this.#comments.length < this.#commentCount) this.#comments.push(value as Comment);
    else this.#history.push(value as HistoryEntry);
    return true;
  }

  /** The issue entry, or null when the lines did not make the issue `key`. */
  entry(key: string): IssueEntry | null {
    if (this.#fields?.key !== key || this.#comments.length !== this.#commentCount) return null;
    return restoreIssue({ ...this.#fields, comments: this.#comments }, this.#history);
  }
}

/** The issue in a slot's bytes, or null when they are not the slot of issue `key`. */
export function parseSlot(bytes: Buffer, key: string): IssueEntry | null {
  const parse = new SlotParse();
  return parse.addLines(bytes.toString('utf8')) ? parse.entry(key) : null;
}

/**
 * Reads a slot of `length` bytes a piece a turn: `readAt(buffer, length, offset)` fills
 * `buffer` from `offset` bytes into the slot (and says how many it read), and the event loop
 * runs between pieces. Resolves to null when the bytes are not the slot of issue `key`.
 */
export async function readSlotInTurns(
  length: number,
  key: string,
  readAt: (buffer: Buffer, length: number, offset: number) => number,
): Promise<IssueEntry | null> {
  const parse = new SlotParse();
  let piece = Buffer.allocUnsafe(Math.min(PIECE_BYTES, length));
  for (let done = 0; done < length;) {
    const want = Math.min(piece.length, length - done);
    if (readAt(piece, want, done) !== want) return null;
    const lineEnd = piece.lastIndexOf(0x0a, want - 1);
    if (lineEnd < 0) {
      // A line longer than the piece: read it again with room for all of it.
      if (want === length - done) return null;
      piece = Buffer.allocUnsafe(Math.min(piece.length * 2, length - done));
      continue;
    }
    if (!parse.addLines(piece.toString('utf8', 0, lineEnd + 1))) return null;
    done += lineEnd + 1;
    if (done < length) await nextTurn();
  }
  return parse.entry(key);
}

// First reading: skip this file. It is performance code, the last step of the reading path in docs/reading-path.md.
// jira://issue/{key}'s text: the issue and its attachments as JSON, printed once per version of
// the issue and kept as UTF-8 bytes, so that a read writes those bytes as they are
// (PreEncoded.ofStringAsBytes) and the change watcher fingerprints the same text
// (resource-watch.ts). A 10 MB issue was printed, encoded and collected again on every read and
// for every fingerprint (issue 30).
//
// Printing a large issue still takes long: two JSON.stringify passes and an encoding of 10 MB,
// a second and more on a loaded machine, in which nothing else runs: no ping is read. So a large
// issue that is not kept is printed a few comments at a time (`soon`), taking turns with other
// long work between the slices (the store's nextTurn); reads of the same version while it is
// printed wait for that one printing. The text is byte for byte JSON.stringify's (the tests hold
// it to that): the comments are printed one slice at a time into the hole JSON.stringify leaves
// for them. The store reads a large issue from its snapshot file in turns too
// (store.getIssueInTurns, lib/store/journal/snapshot-slot.ts).

import { PreEncoded } from '../../protocol/pre-encoded.js';
import { nextTurn, type Issue, type TrackerStore } from '../store/index.js';
import { attachmentSummary } from './attachments.js';
import { createSnapshotCache } from './snapshot-cache.js';

export interface IssueTexts {
  /** The text now: kept, or printed at once. */
  now(issue: Issue): PreEncoded<string>;
  /** The text; for a large issue not kept, printed in slices with other work between them. */
  soon(issue: Issue): PreEncoded<string> | Promise<PreEncoded<string>>;
}

/**
 * Issue texts kept: six of the largest issues (1,000 comments of 10,000 characters, about 10 MB
 * each), so that reading them in turn encodes each once per change, not once per read (issue 30:
 * with room for one, 200 reads of six issues encoded 200 times). 64 MiB, outside V8's heap.
 */
const ISSUE_TEXT_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Comment characters one slice prints, about: a millisecond or two on a quiet machine. Counted
 * in characters, not milliseconds, so that what runs between slices does not depend on the
 * machine's speed. An issue with no more is printed at once.
 */
const SLICE_CHARS = 64 * 1024;

/** An issue, and its attachments (without their bytes) when it has any: what jira://issue/{key} reads. */
export function issueWithAttachments(store: TrackerStore, issue: Issue): Record<string, unknown> {
  const attachments = store.getAttachments(issue.key);
  if (attachments.length === 0) return { issue };
  return { issue, attachments: attachments.map((info) => attachmentSummary(issue.key, info)) };
}

export function createIssueTexts(store: TrackerStore): IssueTexts {
  // An attachment added gives the issue a new snapshot, so a text kept for one stays true.
  const kept = createSnapshotCache(
    (issue: Issue) => PreEncoded.ofStringAsBytes(JSON.stringify(issueWithAttachments(store, issue))),
    (text) => text.size,
    ISSUE_TEXT_CACHE_BYTES,
  );
  const printing = new Map<Issue, Promise<PreEncoded<string>>>();

  return {
    now: (issue) => kept.get(issue),
    soon(issue) {
      const text = kept.kept(issue);
      if (text !== undefined || commentChars(issue) <= SLICE_CHARS) return text ?? kept.get(issue);
      let printed = printing.get(issue);
      if (printed === undefined) {
        printed = printInSlices(issueWithAttachments(store, issue), issue.comments);
        printing.set(issue, printed);
        // A printing that failed (RangeError) fails the reads that waited for it, and is not kept.
        const forget = () => printing.delete(issue);
        void printed.then((done) => (kept.keep(issue, done), forget()), forget);
      }
      return printed;
    },
  };
}

function commentChars(issue: Issue): number {
  let chars = 0;
  for (const comment of issue.comments) chars += comment.body.length;
  return chars;
}

/** JSON.stringify(value)'s text, where `comments` (the issue's) are printed a slice at a time. */
async function printInSlices(value: Record<string, unknown>, comments: Issue['comments']): Promise<PreEncoded<string>> {
  const hole = `\u0000comments ${Math.random()}`;
  const holeJson = JSON.stringify(hole);
  const whole = JSON.stringify({ ...value, issue: { ...(value.issue as Issue), comments: hole } });
  const at = whole.indexOf(holeJson);
  const text = PreEncoded.stringBuilder();
  text.add(`${whole.slice(0, at)}[`);
  let printed = 0; // comment characters printed in this slice
  for (let i = 0; i < comments.length; i++) {
    const comment = comments[i] as Issue['comments'][number];
    text.add(`${i > 0 ? ',' : ''}${JSON.stringify(comment)}`);
    printed += comment.body.length;
    if (printed < SLICE_CHARS) continue;
    await nextTurn();
    printed = 0;
  }
  text.add(`]${whole.slice(at + holeJson.length)}`);
  return text.finish();
}

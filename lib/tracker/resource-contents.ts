// How a resource read becomes contents (resources/read's answer): JSON text, an SVG, an
// attachment's blob, an issue's text kept between reads (issue-texts.ts), the current sprint's
// text printed once per change, and a read the store refuses said as the error the spec wants.

import type { ResourceContents } from '../../protocol/resources.js';
import type { RequestContext } from '../../protocol/context.js';
import { RpcError, excerpt, invalidParams } from '../../protocol/errors.js';
import { PreEncoded } from '../../protocol/pre-encoded.js';
import type { IssueTexts } from './issue-texts.js';
import { CURRENT_SPRINT_URI, JSON_MIME, SVG_MIME, TEMPLATES } from './resource-uris.js';
import { currentSprint, issueInTurnsAt, nothingOnDomainError, readKnownUri, readUri } from './resource-reads.js';
import { type Burndown, type Issue, type SprintStats, type TrackerStore, isDomainError } from '../store/index.js';

/**
 * Performance (a first reading may skip it): jira://sprint/current's text, read by hosts again and again. Its numbers are the same
 * objects until a record is applied or the day turns (the store keeps them: derived.ts), but
 * `read_at`, its last field, is new on every read. So the text before `read_at` is printed
 * and encoded once per pair of those objects, and only `read_at` is added to it on each read:
 * the same text as JSON.stringify(value) of the whole value (a test holds it to that).
 */
function currentSprintTexts(store: TrackerStore): () => PreEncoded<string> | null {
  let kept: { stats: SprintStats; burndown: Burndown['points']; head: PreEncoded<string> } | undefined;
  return () => {
    const sprint = nothingOnDomainError(() => currentSprint(store));
    if (sprint === null) return null;
    if (kept?.stats !== sprint.stats || kept.burndown !== sprint.burndown) {
      const whole = JSON.stringify({ ...sprint.stats, burndown: sprint.burndown });
      kept = { ...sprint, head: PreEncoded.ofString(whole.slice(0, -'}'.length)) };
    }
    return PreEncoded.ofStringThen(kept.head, `,"read_at":${JSON.stringify(new Date().toISOString())}}`);
  };
}

const asContents = (uri: string, value: Record<string, unknown>): ResourceContents[] => [
  { uri, mimeType: JSON_MIME, text: JSON.stringify(value) },
];

/** Each kind of read a resource or template of resources.ts answers with, for one store. */
export function resourceReaders(store: TrackerStore, texts: IssueTexts) {
  const sprintText = currentSprintTexts(store);
  const readAs = (uri: string) => {
    const value = readUri(store, uri);
    return value === null ? null : asContents(uri, value);
  };
  const readSvg = (uri: string) => {
    const value = readUri(store, uri);
    return value === null ? null : [{ uri, mimeType: SVG_MIME, text: String(value.svg) }];
  };
  const readIssue = (uri: string): ResourceContents[] | null | Promise<ResourceContents[]> => {
    const contents = (text: PreEncoded<string>) => [{ uri, mimeType: JSON_MIME, text }];
    const send = (issue: Issue) => {
      const text = texts.soon(issue); // a large issue not kept: printed in slices
      return text instanceof Promise ? text.then(contents) : contents(text);
    };
    const issue = issueInTurnsAt(store, uri); // a large issue still in the snapshot file: read in turns
    return issue === null ? null : issue instanceof Promise ? issue.then(send) : send(issue);
  };
  const readAttachment = (uri: string): ResourceContents[] | null => {
    const vars = TEMPLATES.attachment.match(uri);
    try {
      const file = store.getAttachment(vars?.key ?? '', vars?.name ?? '');
      return [{ uri, mimeType: file.mimeType, blob: file.content }];
    } catch (error) {
      if (isDomainError(error)) return null; // no such issue or attachment
      throw error;
    }
  };
  // A query that does not parse or names what does not exist (a project, in jira://ready) is
  // the reader's mistake, said with its column or the known names: not "not found", which would hide why.
  const readSearch = (uri: string) => {
    try {
      return asContents(uri, readKnownUri(store, uri) ?? {});
    } catch (error) {
      if (isDomainError(error)) throw invalidParams(error.message, { uri });
      throw error;
    }
  };
  // No silent empties (issue 15): a project, sprint or person that does not exist is named in
  // the error with the ones that do, under the era's resource-not-found code; a value the
  // store refuses (a status that is none) is the reader's mistake.
  const readExplained = (uri: string, context: RequestContext) => {
    try {
      const value = readKnownUri(store, uri);
      return value === null ? null : asContents(uri, value);
    } catch (error) {
      if (!isDomainError(error) || error.code === 'conflict') throw error;
      const data = { uri: excerpt(uri) };
      if (error.code !== 'not_found') throw invalidParams(error.message, data);
      throw new RpcError(context.rules.resourceNotFoundCode, `Resource not found: ${excerpt(uri)}. ${error.message}`, data);
    }
  };
  // Over HTTP, the sprint of the user the request's token names (users-file.ts); else --user's.
  const readCurrentSprint = (context: RequestContext): ResourceContents[] => {
    const text = context.auth ? store.actingAs(context.auth.subject, sprintText) : sprintText();
    return text === null ? [] : [{ uri: CURRENT_SPRINT_URI, mimeType: JSON_MIME, text }];
  };
  return { readAs, readSvg, readIssue, readAttachment, readSearch, readExplained, readCurrentSprint };
}

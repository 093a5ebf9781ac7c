// Finding a person by any name they go by, and the refusal that offers the way out.
//
// A person is named by their handle (alice), their display name (Alice Smith), their e-mail or
// an alias (a Jira account id), in any case. A name nobody goes by is refused, never taken as a
// new person: that is how "zed" got assigned issues nobody would ever see (issue 32). The
// refusal names the closest handles ("did you mean alice?") and the people there are, bounded.
import { COMPARED_MAX, typoAllowance, typoDistance } from '../../../protocol/closest-names.js';
import { domainError } from '../model/errors.js';
import { foldName, identitiesOf, otherNamesOf, type Person } from '../model/person.js';
import type { TrackerState } from './state.js';

/** People named in one refusal; jira://people lists them all. */
export const PEOPLE_LISTED_MAX = 20;
/** Suggestions in "did you mean". */
const SUGGESTIONS_MAX = 3;

/** What a name finds: one handle, several people who share it, or nobody. */
export type Found = { readonly handle: string } | { readonly several: readonly string[] } | null;

/** The person a name finds (see the top of this file), without throwing. */
export function findPerson(state: TrackerState, text: string): Found {
  const folded = foldName(text);
  if (state.people.has(folded)) return { handle: folded };
  const handles = state.personNames.get(folded) ?? [];
  if (handles.length === 0) return null;
  return handles.length === 1 ? { handle: handles[0] as string } : { several: [...handles].sort() };
}

/**
 * The handle of the person `raw` names; refused (not_found) with the closest handles and the
 * people there are, or (invalid_argument) with the people a shared name finds.
 */
export function requirePersonNamed(state: TrackerState, raw: unknown, field: string): string {
  if (typeof raw !== 'string' || raw.trim() === '')
    throw domainError('invalid_argument', `${field} must be a person: a handle, display name or e-mail.`);
  const found = findPerson(state, raw);
  if (found !== null && 'handle' in found) return found.handle;
  const shown = JSON.stringify(raw.trim().slice(0, COMPARED_MAX));
  if (found !== null) {
    const who = found.several.map((handle) => describePerson(state, handle)).join(', ');
    throw domainError('invalid_argument', `${field} ${shown} names ${found.several.length} people: ${who}. Give the handle.`);
  }
  throw domainError('not_found', `No one called ${shown} is known to the tracker. ${unknownPersonHint(state, raw)}`);
}

/** Whose handle, e-mail or alias `identity` (folded) is, other than `handle`'s; null when nobody's. */
export function identityOwner(state: TrackerState, identity: string, handle: string): string | null {
  if (identity !== handle && state.directory.has(identity)) return identity;
  for (const other of state.personNames.get(identity) ?? []) {
    const person = state.directory.get(other);
    if (other !== handle && person !== undefined && identitiesOf(person).includes(identity)) return other;
  }
  return null;
}

/** "Did you mean alice? People: alice (Alice Smith), bob (Bob Jones) …": the way out of an unknown name. */
export function unknownPersonHint(state: TrackerState, text: string): string {
  const close = closestHandles(state, text);
  const guess = close.length === 0 ? '' : `Did you mean ${close.join(' or ')}? `;
  return `${guess}People: ${listedPeople(state)}.`;
}

/** Up to PEOPLE_LISTED_MAX people by handle, with their display names, and how many more. */
export function listedPeople(state: TrackerState): string {
  const handles = [...state.people].sort();
  if (handles.length === 0) return 'none';
  const shown = handles.slice(0, PEOPLE_LISTED_MAX).map((handle) => describePerson(state, handle));
  const more = handles.length - PEOPLE_LISTED_MAX;
  return more > 0 ? `${shown.join(', ')} and ${more} more (jira://people lists them all)` : shown.join(', ');
}

/** "alice (Alice Smith)", or the handle alone when the directory knows no other name. */
function describePerson(state: TrackerState, handle: string): string {
  const person = state.directory.get(handle);
  return person === undefined || person.name === handle ? handle : `${handle} (${person.name})`;
}

/**
 * The handles whose names are within a typo of `text` (protocol/closest-names.ts: at most a
 * third of its letters changed, at least 2, or a name that starts with it). Closest first, then by handle.
 */
function closestHandles(state: TrackerState, text: string): string[] {
  const wanted = foldName(text).slice(0, COMPARED_MAX);
  const allowed = typoAllowance(wanted);
  const scored: Array<{ handle: string; distance: number }> = [];
  for (const handle of state.people) {
    const person = state.directory.get(handle);
    const names = person === undefined ? [handle] : namesOf(person);
    let distance = Infinity;
    for (const name of names) distance = Math.min(distance, typoDistance(wanted, name.slice(0, COMPARED_MAX), allowed));
    if (distance <= allowed) scored.push({ handle, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || (a.handle < b.handle ? -1 : 1));
  return scored.slice(0, SUGGESTIONS_MAX).map((entry) => entry.handle);
}

/** The handle, the display name, its first word, the e-mail's local part and the aliases. */
function namesOf(person: Person): string[] {
  const [name, ...rest] = otherNamesOf(person);
  const firstWord = (name ?? '').split(' ')[0] ?? '';
  const local = person.email === null ? [] : [foldName(person.email.slice(0, person.email.indexOf('@')))];
  return [person.handle, name ?? '', firstWord, ...local, ...rest];
}

// Applying a person.saved record: the directory's entry for a handle, added or replaced whole.
//
// A name finds one person or is shared (two people may both be "Alex"), but an e-mail or an
// alias is an identity: one that is already another person's (as their handle, e-mail or
// alias) would make a lookup depend on the order people were added, so it is refused.
import { identitiesOf, otherNamesOf, PEOPLE_LIMITS, type Person } from '../model/person.js';
import type { RecordOf } from '../model/record-schema.js';
import type { Change } from '../state/change.js';
import { identityOwner } from '../state/people.js';
import type { TrackerState } from '../state/state.js';

/** Throws (a plain Error with the reason) when the entry does not fit the directory. */
export function checkPersonSaved(state: TrackerState, person: Person): void {
  if (!state.directory.has(person.handle) && state.directory.size >= PEOPLE_LIMITS.peopleMax)
    throw new Error(`the people directory holds its limit of ${PEOPLE_LIMITS.peopleMax} people`);
  for (const identity of identitiesOf(person)) {
    const owner = identityOwner(state, identity, person.handle);
    if (owner !== null) throw new Error(`"${identity}" is already ${owner}'s handle, e-mail or alias`);
  }
}

export function applyPersonSaved(state: TrackerState, record: RecordOf<'person.saved'>): Change {
  const { handle, name, email, aliases } = record.person;
  const before = state.directory.get(handle);
  if (before !== undefined) nameIndex(state, before, false);
  const person: Person = Object.freeze({ handle, name, email, aliases: Object.freeze([...aliases]) as string[] });
  state.directory.set(handle, person);
  nameIndex(state, person, true);
  state.people.add(handle);
  const description = `${before === undefined ? 'Person added' : 'Person changed'}: ${handle} (${name})`;
  return { description, issues: [], sprints: [], projects: [], issueSetChanged: false };
}

/** Files the person under each of their other names (state.personNames), or takes them out. */
export function nameIndex(state: TrackerState, person: Person, present: boolean): void {
  for (const name of new Set(otherNamesOf(person))) {
    const handles = (state.personNames.get(name) ?? []).filter((handle) => handle !== person.handle);
    if (present) handles.push(person.handle);
    if (handles.length === 0) state.personNames.delete(name);
    else state.personNames.set(name, handles);
  }
}

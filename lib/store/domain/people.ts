// The people directory's commands: a person added or their names changed (person.saved), and
// what a listing of them shows.
//
// How people get in (issue 32): by whoever runs the tracker, never by the model on its own, and
// never on first use. First use is how a typo ("zed") became an assignee nobody would ever see.
// So people come from the demo data, from the `--users-file` of an HTTP instance (each user is a
// person from the server's start) and from an import (the Jira migration writes the people it
// maps, with their display names and account ids); anyone a journal's records already name
// (leads, reporters, assignees, comment authors) is known too. None of these is a tool: a tool
// the model could call to add "zed" would undo the check, and every session would pay its tokens.
import { parseHandle, parseText, quote, requireString } from '../model/args.js';
import type { Plan } from '../backend/record-log.js';
import type { Change } from '../state/change.js';
import { domainError } from '../model/errors.js';
import { EMAIL_PATTERN, foldName, identitiesOf, PEOPLE_LIMITS, type Person } from '../model/person.js';
import type { RecordDraft } from '../model/record-schema.js';
import { LIMITS } from '../model/schema.js';
import { identityOwner, requirePersonNamed } from '../state/people.js';
import type { TrackerState } from '../state/state.js';

/** A person as a caller gives them: what is left out stays as it was (a new person's name: the handle). */
export interface PersonInput {
  readonly handle: string;
  readonly name?: string;
  /** null (or "") removes it. */
  readonly email?: string | null;
  /** Replace the aliases. */
  readonly aliases?: readonly string[];
}

/** Format checks only. */
export function parsePerson(input: PersonInput): PersonInput {
  const aliases = input.aliases === undefined ? undefined : parseAliases(input.aliases);
  return {
    handle: parseHandle(input.handle, 'handle'),
    ...(input.name === undefined ? {} : { name: parseText(input.name, 'name', 1, LIMITS.nameMax) }),
    ...(input.email === undefined ? {} : { email: parseEmail(input.email) }),
    ...(aliases === undefined ? {} : { aliases }),
  };
}

/** The person.saved record that makes the directory's entry what the request says; null when it already is. */
export function planSavePerson(state: TrackerState, request: PersonInput): RecordDraft | null {
  const before = state.directory.get(request.handle);
  const person: Person = {
    handle: request.handle,
    name: request.name ?? before?.name ?? request.handle,
    email: request.email !== undefined ? request.email : (before?.email ?? null),
    aliases: [...(request.aliases ?? before?.aliases ?? [])],
  };
  if (before !== undefined && JSON.stringify(before) === JSON.stringify(person)) return null;
  for (const identity of identitiesOf(person)) {
    const owner = identityOwner(state, identity, person.handle);
    if (owner !== null)
      throw domainError('conflict', `${quote(identity)} is already ${owner}'s; an e-mail or alias names one person.`);
  }
  if (before === undefined && state.directory.size >= PEOPLE_LIMITS.peopleMax)
    throw domainError('conflict', `The people directory holds its limit of ${PEOPLE_LIMITS.peopleMax} people.`);
  return { type: 'person.saved', person };
}

/**
 * A person an import or a users file meets: added when the directory lacks them, their new
 * aliases (account ids) added when it has them; a name already there is kept (someone may
 * have corrected it). null when there is nothing to add.
 */
export function planPersonMet(state: TrackerState, handle: string, name: string, aliases: readonly string[]): RecordDraft | null {
  const before = state.directory.get(handle);
  const known = new Set(before === undefined ? [] : identitiesOf(before));
  const added = aliases.filter((alias) => !known.has(foldName(alias)) && identityOwner(state, foldName(alias), handle) === null);
  if (before !== undefined && added.length === 0) return null;
  const kept = before?.aliases ?? [];
  return planSavePerson(state, {
    handle,
    name: before?.name ?? name,
    aliases: [...kept, ...added].slice(0, PEOPLE_LIMITS.aliasesMax),
  });
}

function parseEmail(value: unknown): string | null {
  if (value === null || value === '') return null;
  const email = requireString(value, 'email').trim();
  if (email.length > PEOPLE_LIMITS.emailMax || !EMAIL_PATTERN.test(email))
    throw domainError('invalid_argument', `Invalid email ${quote(value)}: an address such as alice@example.com.`);
  return email;
}

function parseAliases(value: unknown): string[] {
  if (!Array.isArray(value)) throw domainError('invalid_argument', 'aliases must be a list of names.');
  if (value.length > PEOPLE_LIMITS.aliasesMax)
    throw domainError('invalid_argument', `At most ${PEOPLE_LIMITS.aliasesMax} aliases; got ${value.length}.`);
  return [...new Set(value.map((alias) => parseText(alias, 'alias', 1, PEOPLE_LIMITS.aliasMax)))];
}

/** A person as the listing shows them: the directory's entry (handle alone for someone only seen) and their assigned issues. */
export interface PersonListing extends Person {
  readonly assigned: number;
}

/** People a listing shows at most (PEOPLE_LIMITS.peopleMax may be kept): by handle, from `offset`. */
export const PEOPLE_SHOWN_MAX = 500;

/** Everyone the tracker knows, by handle: the directory and anyone the records name. */
export function listPeople(state: TrackerState, offset = 0): { people: PersonListing[]; total: number } {
  const handles = [...state.people].sort();
  const people = handles.slice(offset, offset + PEOPLE_SHOWN_MAX).map((handle) => {
    const person = state.directory.get(handle) ?? { handle, name: handle, email: null, aliases: [] };
    return { ...person, assigned: state.assignmentCounts.get(handle) ?? 0 };
  });
  return { people, total: handles.length };
}

/** What the store offers of the directory (store-api.ts TrackerStore): its reads. */
export interface PeopleReads {
  /** Everyone the tracker knows by handle, from `offset`, at most PEOPLE_SHOWN_MAX, and how many there are. */
  listPeople(offset?: number): { people: PersonListing[]; total: number };
  /** The handle of the person a handle, display name, e-mail or alias names; refused with "did you mean" and the people. */
  personHandle(name: string): string;
}

/** What the store offers of the directory (store-api.ts TrackerStore): its commands. */
export interface PeopleCommands {
  /** Adds a person or changes their names: what is left out stays. */
  savePerson(input: PersonInput): Promise<Change>;
  /** People a users file or an import meets (planPersonMet): added when missing, new aliases added. */
  meetPeople(people: readonly PersonMet[]): Promise<Change[]>;
}

export interface PersonMet {
  readonly handle: string;
  readonly name: string;
  readonly aliases?: readonly string[];
}

/** The store's reads of the directory, over its `read`. */
export function peopleReads(read: <T>(query: (state: TrackerState) => T) => T): PeopleReads {
  return {
    listPeople: (offset) => read((state) => listPeople(state, offset)),
    personHandle: (name) => read((state) => requirePersonNamed(state, name, 'person')),
  };
}

/** The store's commands of the directory, over its `mutate` (plan, append, tell listeners). */
export function peopleCommands(mutate: (plan: Plan) => Promise<Change | null>): PeopleCommands {
  return {
    async savePerson(input) {
      const request = parsePerson(input);
      const change = await mutate((state) => planSavePerson(state, request));
      return (
        change ?? {
          description: `${request.handle} is already so; nothing changed.`,
          issues: [],
          sprints: [],
          projects: [],
          issueSetChanged: false,
        }
      );
    },
    async meetPeople(people) {
      const changes: Change[] = [];
      for (const { handle: raw, name, aliases = [] } of people) {
        const handle = parseHandle(raw, 'handle');
        const change = await mutate((state) => planPersonMet(state, handle, parseText(name, 'name', 1, LIMITS.nameMax), aliases));
        if (change !== null) changes.push(change);
      }
      return changes;
    },
  };
}

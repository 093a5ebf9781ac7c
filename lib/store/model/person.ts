// A person of the people directory: the handle the tracker writes everywhere (assignee,
// reporter, comment author, history's `by`), and the other names people and imports use for
// them: a display name, an e-mail, aliases such as a Jira account id. Any of them finds the
// person (state/people.ts); only the handle is ever stored on an issue.
import * as z from 'zod/mini';
import { HandleSchema, LIMITS } from './schema.js';

/** Enough of an address to tell it from a name: something@domain.tld, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const PEOPLE_LIMITS = {
  /** RFC 5321's longest path, 256 with its brackets. */
  emailMax: 254,
  /** A Jira Cloud account id ("557058:f58131cb-...") is 43 characters; a former name fits too. */
  aliasMax: LIMITS.nameMax,
  aliasesMax: 10,
  /** People the directory holds: every listing of them and every "did you mean" stays bounded. */
  peopleMax: 10_000,
} as const;

/** A person's fields: the directory's entry (PersonSchema) and, strict, the export's (snapshot-format.ts). */
export const PERSON_SHAPE = {
  handle: HandleSchema,
  /** How people call them: "Alice Smith". The handle when nothing better is known. */
  name: z.string().check(z.minLength(1), z.maxLength(LIMITS.nameMax)),
  email: z.nullable(z.string().check(z.maxLength(PEOPLE_LIMITS.emailMax), z.regex(EMAIL_PATTERN))),
  aliases: z
    .array(z.string().check(z.minLength(1), z.maxLength(PEOPLE_LIMITS.aliasMax)))
    .check(z.maxLength(PEOPLE_LIMITS.aliasesMax)),
};

export const PersonSchema = z.readonly(z.object(PERSON_SHAPE));
export type Person = z.infer<typeof PersonSchema>;

/** Every name that finds a person besides the handle, folded as lookups fold them. */
export function otherNamesOf(person: Person): string[] {
  return [person.name, ...(person.email === null ? [] : [person.email]), ...person.aliases].map(foldName);
}

/** The names that are one person's alone: the e-mail and the aliases, folded. */
export function identitiesOf(person: Person): string[] {
  return [...(person.email === null ? [] : [person.email]), ...person.aliases].map(foldName);
}

/** Names compare without case and surrounding or repeated spaces: "alice  SMITH " is "alice smith". */
export function foldName(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

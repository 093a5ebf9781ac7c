// How a Jira export's words become ours: people (display names and account ids) as handles,
// statuses, types, priorities and resolutions by name. Jira teams name their own statuses
// ("Code Review", "QA", "Won't Do") and types ("Spike"); a row is never refused for a name we
// can place: a status by its name, else by the Status Category column Jira Cloud writes (To Do,
// In Progress, Done); a type by its name, else as a task. Every mapping that is not the name
// itself is counted for the report, so a reader sees what became what.
import { PEOPLE_LIMITS } from '../model/person.js';
import { HANDLE_PATTERN, LIMITS, type IssueType, type Priority, type Resolution, type Status } from '../model/schema.js';
import { parseIssueType, parsePriority } from '../model/args.js';
import {
  DEFAULT_WORKFLOW,
  categoryIn,
  parseResolution,
  parseStatus,
  workflowStatus,
  type StatusCategory,
  type Workflow,
} from '../model/workflow.js';
import { isDomainError } from '../model/errors.js';

/** What the words of one import became: "Code Review → in_review", with how many rows. */
export class MappingNotes {
  readonly #notes = new Map<string, number>();
  note(what: string): void {
    this.#notes.set(what, (this.#notes.get(what) ?? 0) + 1);
  }
  lines(): string[] {
    return [...this.#notes].map(([what, count]) => `${what} (${count} ${count === 1 ? 'row' : 'rows'})`);
  }
}

/** "Won't Do", "Code-Review" → wontdo, codereview: names compared without case, spaces or punctuation. */
const squeeze = (value: string): string => value.toLowerCase().replace(/[^a-z0-9]+/g, '');

/** Statuses teams name themselves, and where they go: a closing status brings its resolution. */
const STATUS_WORDS: ReadonlyMap<string, { status: Status; resolution?: Resolution }> = new Map([
  ['codereview', { status: 'in_review' }],
  ['peerreview', { status: 'in_review' }],
  ['qa', { status: 'in_review' }],
  ['testing', { status: 'in_review' }],
  ['intest', { status: 'in_review' }],
  ['inqa', { status: 'in_review' }],
  ['selectedfordevelopment', { status: 'todo' }],
  ['ready', { status: 'todo' }],
  ['readyfordev', { status: 'todo' }],
  ['indevelopment', { status: 'in_progress' }],
  ['doing', { status: 'in_progress' }],
  ['inprogress', { status: 'in_progress' }],
  ['onhold', { status: 'blocked' }],
  ['wontdo', { status: 'done', resolution: 'wont_do' }],
  ['wontfix', { status: 'done', resolution: 'wont_do' }],
  ['cancelled', { status: 'done', resolution: 'wont_do' }],
  ['canceled', { status: 'done', resolution: 'wont_do' }],
  ['rejected', { status: 'done', resolution: 'wont_do' }],
  ['declined', { status: 'done', resolution: 'wont_do' }],
  ['duplicate', { status: 'done', resolution: 'duplicate' }],
]);
/** Jira's three status categories. */
const CATEGORIES: ReadonlyMap<string, Status> = new Map([
  ['todo', 'todo'],
  ['new', 'todo'],
  ['inprogress', 'in_progress'],
  ['indeterminate', 'in_progress'],
  ['done', 'done'],
  ['complete', 'done'],
]);

/**
 * A status (and the resolution a closing status brings) by name, else by category; noted when
 * not our own name. A name neither places is refused with its row: a guess would hide it. The
 * names are the workflow's of the project the row goes to (docs/workflows.md): a project given
 * Code Review, QA and Won't Do of its own keeps them, the default workflow maps them onto its own.
 */
export function mapStatus(
  name: string,
  category: string,
  notes: MappingNotes,
  workflow: Workflow = DEFAULT_WORKFLOW,
): { status: Status; resolution?: Resolution } | null {
  if (name === '') return null;
  let unknown: unknown;
  try {
    return { status: parseStatus(name, workflow) };
  } catch (error) {
    if (!isDomainError(error)) throw error;
    unknown = error;
  }
  const word = STATUS_WORDS.get(squeeze(name));
  const placed = word !== undefined && workflowStatus(workflow, word.status) !== undefined;
  if (word !== undefined && placed && (word.resolution === undefined || workflow.resolutions.includes(word.resolution))) {
    notes.note(`status ${name} → ${word.status}${word.resolution ? ` (resolution ${word.resolution})` : ''}, by its name`);
    return word;
  }
  const inDefault = CATEGORIES.get(squeeze(category));
  // The workflow's first status of that category (in the default, the one CATEGORIES names).
  const byCategory = inDefault && workflow.statuses.find((s) => s.category === categoryIn(DEFAULT_WORKFLOW, inDefault))?.id;
  if (byCategory !== undefined) {
    notes.note(`status ${name} → ${byCategory}, by its status category ${category}`);
    return { status: byCategory };
  }
  throw unknown;
}

const TYPE_WORDS: ReadonlyMap<string, IssueType> = new Map([
  ['spike', 'task'],
  ['research', 'task'],
  ['chore', 'task'],
  ['improvement', 'story'],
  ['newfeature', 'story'],
  ['feature', 'story'],
  ['userstory', 'story'],
  ['defect', 'bug'],
  ['incident', 'bug'],
  ['problem', 'bug'],
  ['initiative', 'epic'],
]);

export function mapType(name: string, notes: MappingNotes): IssueType | undefined {
  if (name === '') return undefined;
  try {
    const type = parseIssueType(name);
    if (squeeze(name) !== type) notes.note(`type ${name} → ${type}`);
    return type;
  } catch (error) {
    if (!isDomainError(error)) throw error;
  }
  const type = TYPE_WORDS.get(squeeze(name)) ?? 'task';
  notes.note(`type ${name} → ${type}${TYPE_WORDS.has(squeeze(name)) ? '' : ' (a name we do not know)'}`);
  return type;
}

/** Jira's five priorities and ours (args.ts); an unknown one is refused with its row, as an unknown status is. */
export function mapPriority(name: string, notes: MappingNotes): Priority | undefined {
  if (name === '') return undefined;
  const priority = parsePriority(name);
  // We have four priorities; Jira's fifth, Lowest, is our lowest too.
  if (squeeze(name) === 'lowest') notes.note(`priority ${name} → ${priority} (the lowest of our four)`);
  return priority;
}

/**
 * The category a Jira status is in (the workflow an import makes, import-workflow.ts): the
 * Status Category column where the row has one, else the category of the default status its
 * name places (Code Review: in progress; Won't Do: done); undefined when neither says.
 */
export function jiraStatusCategory(name: string, category: string): StatusCategory | undefined {
  const status = CATEGORIES.get(squeeze(category)) ?? STATUS_WORDS.get(squeeze(name))?.status;
  return status === undefined ? undefined : categoryIn(DEFAULT_WORKFLOW, status);
}

const RESOLUTION_WORDS: ReadonlyMap<string, Resolution> = new Map([
  ['fixed', 'done'],
  ['resolved', 'done'],
  ['complete', 'done'],
  ['wontfix', 'wont_do'],
  ['incomplete', 'wont_do'],
  ['obsolete', 'wont_do'],
  ['declined', 'wont_do'],
  ['cannotreproduce', 'cannot_reproduce'],
  ['worksasdesigned', 'cannot_reproduce'],
]);

/** A resolution only goes with done: Jira's "Unresolved" and any resolution on an open issue are dropped. */
export function mapResolution(
  name: string,
  status: Status | undefined,
  notes: MappingNotes,
  workflow: Workflow = DEFAULT_WORKFLOW,
): Resolution | undefined {
  if (name === '' || squeeze(name) === 'unresolved') return undefined;
  if (status === undefined || categoryIn(workflow, status) !== 'done') {
    notes.note(`resolution ${name} on an issue that is not done: left out`);
    return undefined;
  }
  try {
    return parseResolution(name, workflow);
  } catch (error) {
    if (!isDomainError(error)) throw error;
  }
  const resolution = RESOLUTION_WORDS.get(squeeze(name)) ?? 'done';
  notes.note(`resolution ${name} → ${resolution}`);
  return resolution;
}

/** Jira Cloud's account ids: "557058:f58131cb-…", or 24 hex digits for older accounts. */
const ACCOUNT_ID = /^(\d+:[0-9a-z-]+|[0-9a-f]{24})$/i;
const LETTERS: Readonly<Record<string, string>> = { ß: 'ss', æ: 'ae', ø: 'o', œ: 'oe', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/** "Zoë Ångström" → zoe.angstrom: a handle from a display name, or null when nothing of it is left. */
export function handleFromName(name: string): string | null {
  const folded = name
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßæøœłđðþı]/g, (letter) => LETTERS[letter] ?? letter)
    .replace(/[^a-z0-9._-]+/g, '.')
    .replace(/\.{2,}/g, '.')
    .replace(/^[^a-z]+|[._-]+$/g, '');
  const handle = folded.slice(0, 32).replace(/[._-]+$/, '');
  return HANDLE_PATTERN.test(handle) ? handle : null;
}

/**
 * People as the export names them (handles, display names, account ids) to handles: a user
 * map first (name or account id → handle), then a handle as it is, then an account id by the
 * display name the export pairs it with (Assignee Id beside Assignee), then a display name
 * folded into a handle; an account id nothing names becomes user.<its last characters>. Names
 * that fold to one handle ("José", "Jose", "jose") are taken for one person, as a reader would.
 */
export class PeopleMap {
  readonly #given: ReadonlyMap<string, string>;
  readonly #names = new Map<string, string>();
  readonly #accounts = new Map<string, string>();
  readonly mapped = new Map<string, { handle: string; how: string }>();

  constructor(userMap: ReadonlyMap<string, string>) {
    this.#given = new Map([...userMap].map(([name, handle]) => [name.trim().toLowerCase(), handle]));
  }

  /** An account id and the display name an export writes beside it. */
  learnAccount(accountId: string, name: string): void {
    if (accountId !== '' && name !== '' && !this.#accounts.has(accountId)) this.#accounts.set(accountId, name);
  }

  handle(person: string): string {
    const name = person.trim();
    const known = this.#names.get(name);
    if (known !== undefined) return known;
    const { handle, how } = this.#place(name);
    this.#names.set(name, handle);
    if (how !== 'as it is') this.mapped.set(name, { handle, how });
    return handle;
  }

  #place(name: string): { handle: string; how: string } {
    const given = this.#given.get(name.toLowerCase());
    if (given !== undefined) return { handle: given, how: 'by the user map' };
    if (HANDLE_PATTERN.test(name)) return { handle: name, how: 'as it is' };
    if (ACCOUNT_ID.test(name)) {
      const displayName = this.#accounts.get(name);
      if (displayName !== undefined) return { handle: this.handle(displayName), how: `account id of ${displayName}` };
      const tail = name
        .toLowerCase()
        .replace(/[^a-z0-9]/g, '')
        .slice(-8);
      return { handle: `user.${tail}`, how: 'account id no column names (give it in a user map)' };
    }
    return { handle: handleFromName(name) ?? 'user', how: 'display name' };
  }

  lines(): string[] {
    return [...this.mapped].map(([name, { handle, how }]) => `${name} → ${handle} (${how})`);
  }

  /**
   * Everyone the export named, for the people directory: the display name Jira showed (else
   * the handle), and their account ids and other names as aliases, so a later search by any of
   * them finds the same person.
   */
  people(): Array<{ handle: string; name: string; aliases: string[] }> {
    const found = new Map<string, { name: string; aliases: Set<string> }>();
    const entry = (handle: string) => found.get(handle) ?? found.set(handle, { name: handle, aliases: new Set() }).get(handle)!;
    for (const [name, handle] of this.#names) {
      const person = entry(handle);
      if (name === handle) continue;
      if (person.name === handle && !ACCOUNT_ID.test(name)) person.name = name;
      else person.aliases.add(name);
    }
    for (const [accountId, name] of this.#accounts) {
      const handle = this.#names.get(name.trim());
      if (handle !== undefined) entry(handle).aliases.add(accountId);
    }
    return [...found].map(([handle, { name, aliases }]) => ({
      handle,
      name: name.slice(0, LIMITS.nameMax),
      aliases: [...aliases].filter((alias) => alias.length <= PEOPLE_LIMITS.aliasMax).slice(0, PEOPLE_LIMITS.aliasesMax),
    }));
  }
}

/** A user map file: a JSON object {"Zoë Ångström": "zoe"}, or lines "name or account id,handle". */
export function readUserMap(text: string): Map<string, string> {
  const trimmed = text.trim();
  const pairs: [string, unknown][] = trimmed.startsWith('{')
    ? Object.entries(JSON.parse(trimmed) as Record<string, unknown>)
    : trimmed
        .split(/\r?\n/)
        .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'))
        .map((line) => {
          const at = line.lastIndexOf(',');
          return [line.slice(0, Math.max(0, at)).trim(), line.slice(at + 1).trim()];
        });
  const map = new Map<string, string>();
  for (const [name, handle] of pairs) {
    const wanted = typeof handle === 'string' ? handle.trim().toLowerCase() : '';
    if (name === '' || !HANDLE_PATTERN.test(wanted)) {
      throw new Error(`user map: '${name}' → '${String(handle)}' is not a name and a handle (a letter, then a-z 0-9 . _ -)`);
    }
    map.set(name, wanted);
  }
  return map;
}

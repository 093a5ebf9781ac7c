// Checking caller-supplied values, with messages that say how to fix the call.
//
// Inputs arrive from a model through JSON, so every parser takes `unknown`
// and either returns a clean value or throws a DomainError whose message
// names the bad value and the accepted form. Harmless spelling differences
// are forgiven (case, "in progress" for in_progress) because the intent is
// unambiguous; anything else is refused, never guessed.
import { domainError } from './errors.js';
import {
  HANDLE_PATTERN,
  ISSUE_KEY_PATTERN,
  ISSUE_NUMBER_TOO_LARGE,
  issueNumberWithinLimit,
  ISSUE_TYPES,
  LABEL_PATTERN,
  LIMITS,
  PRIORITIES,
  PROJECT_KEY_PATTERN,
  SPRINT_ID_PATTERN,
  type IssueType,
  type Priority,
  isStoryPoints,
} from './schema.js';

export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 100;

function invalid(message: string): never {
  throw domainError('invalid_argument', message);
}

/** How a value is quoted in messages: short, and never a wall of text. */
export function quote(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return `'${text.length > 40 ? `${text.slice(0, 40)}…` : text}'`;
}

export function requireString(value: unknown, field: string): string {
  if (typeof value !== 'string') invalid(`${field} must be a string, got ${quote(value)}.`);
  return value;
}

export function parseIssueKey(value: unknown, field = 'Issue key'): string {
  const key = requireString(value, field).trim().toUpperCase();
  if (key.length > LIMITS.maxKeyLength || !ISSUE_KEY_PATTERN.test(key)) {
    invalid(`Invalid issue key ${quote(value)}. Issue keys look like PROJ-101: a project key, a dash and a number.`);
  }
  if (!issueNumberWithinLimit(key)) invalid(`Invalid issue key ${quote(value)}: ${ISSUE_NUMBER_TOO_LARGE}.`);
  return key;
}

export function parseProjectKey(value: unknown): string {
  const key = requireString(value, 'Project key').trim().toUpperCase();
  if (!PROJECT_KEY_PATTERN.test(key)) {
    invalid(
      `Invalid project key ${quote(value)}. Project keys are 2-10 capital letters or digits, starting with a letter, such as PROJ.`,
    );
  }
  return key;
}

export function parseSprintId(value: unknown): string {
  const id = requireString(value, 'Sprint id').trim().toUpperCase();
  if (id.length > LIMITS.maxKeyLength || !SPRINT_ID_PATTERN.test(id)) {
    invalid(`Invalid sprint id ${quote(value)}. Sprint ids look like PROJ-S42: a project key, '-S' and the sprint number.`);
  }
  return id;
}

/**
 * Jira's priority names, for imports and for people used to them: the current five levels
 * and the classic ones (Blocker to Trivial), folded onto our four.
 */
const JIRA_PRIORITIES: ReadonlyMap<string, Priority> = new Map<string, Priority>([
  ['HIGHEST', 'P0'],
  ['BLOCKER', 'P0'],
  ['HIGH', 'P1'],
  ['CRITICAL', 'P1'],
  ['MEDIUM', 'P2'],
  ['MAJOR', 'P2'],
  ['LOW', 'P3'],
  ['LOWEST', 'P3'],
  ['MINOR', 'P3'],
  ['TRIVIAL', 'P3'],
]);

export function parsePriority(value: unknown): Priority {
  const normal = typeof value === 'string' ? value.trim().toUpperCase() : value;
  const priority = PRIORITIES.find((p) => p === normal) ?? JIRA_PRIORITIES.get(String(normal));
  if (priority === undefined) {
    invalid(`Unknown priority ${quote(value)}. Use one of: ${PRIORITIES.join(', ')} (P0 is the most urgent).`);
  }
  return priority;
}

export function parseIssueType(value: unknown): IssueType {
  const normal = typeof value === 'string' ? value.trim().toLowerCase() : value;
  // Jira's sub-task is a task here: the parent/child structure is the epic's.
  const type = ISSUE_TYPES.find((t) => t === normal) ?? (normal === 'sub-task' || normal === 'subtask' ? 'task' : undefined);
  if (type === undefined) invalid(`Unknown issue type ${quote(value)}. Use one of: ${ISSUE_TYPES.join(', ')}.`);
  return type;
}

/** A person: a lower-case handle such as `alice`. */
export function parseHandle(value: unknown, field: string): string {
  const handle = requireString(value, field).trim().toLowerCase();
  if (!HANDLE_PATTERN.test(handle)) {
    invalid(
      `Invalid ${field} ${quote(value)}. People are handles such as alice: a letter, then letters, digits, '.', '_' or '-', up to 32 characters.`,
    );
  }
  return handle;
}

export function parseOptionalHandle(value: unknown, field: string): string | null {
  return value === null || value === undefined || value === '' ? null : parseHandle(value, field);
}

/** Trims, then requires min..max characters. */
export function parseText(value: unknown, field: string, min: number, max: number): string {
  const text = requireString(value, field).trim();
  if (text.length < min) invalid(`${field} must not be empty.`);
  if (text.length > max) invalid(`${field} is ${text.length} characters long; the limit is ${max}.`);
  return text;
}

export function parseStoryPoints(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'number' || !isStoryPoints(value)) {
    invalid(
      `Invalid story points ${quote(value)}. Use a number from 0 to ${LIMITS.storyPointsMax} (decimals to the hundredth, such as 3.5), or null for unestimated.`,
    );
  }
  return value as number;
}

/** Lower-cased, de-duplicated, in the order given. */
export function parseLabels(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) invalid(`labels must be a list of strings, got ${quote(value)}.`);
  const labels = [...new Set(value.map((label) => requireString(label, 'Each label').trim().toLowerCase()))];
  const bad = labels.find((label) => !LABEL_PATTERN.test(label));
  if (bad !== undefined) {
    invalid(
      `Invalid label ${quote(bad)}. Labels are lower-case letters, digits, '-' or '_', up to 32 characters, such as backend.`,
    );
  }
  if (labels.length > LIMITS.labelsMax) invalid(`An issue can have at most ${LIMITS.labelsMax} labels; got ${labels.length}.`);
  return labels;
}

export interface PageRequest {
  readonly offset: number;
  readonly limit: number;
}

export function parsePage(offset: unknown, limit: unknown): PageRequest {
  const start = offset ?? 0;
  const size = limit ?? PAGE_LIMIT_DEFAULT;
  if (!Number.isInteger(start) || (start as number) < 0)
    invalid(`offset must be a whole number of 0 or more, got ${quote(offset)}.`);
  if (!Number.isInteger(size) || (size as number) < 1 || (size as number) > PAGE_LIMIT_MAX) {
    invalid(`limit must be a whole number from 1 to ${PAGE_LIMIT_MAX}, got ${quote(limit)}.`);
  }
  return { offset: start as number, limit: size as number };
}

/** Accepts one value or a list of them (status: "todo" or ["todo", "in_progress"]). */
export function parseOneOrMany<T>(value: unknown, parse: (item: unknown) => T): T[] {
  return Array.isArray(value) ? value.map(parse) : [parse(value)];
}

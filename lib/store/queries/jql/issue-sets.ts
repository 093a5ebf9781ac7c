// The clauses that name issues rather than values of a field: `key IN (...)`, `key > PROJ-105`,
// `parent = PROJ-109`, `resolution = duplicate`, and the functions that give issues
// (linkedIssues(), blockedIssues(), blockingIssues()). Each becomes the set of keys it names,
// read from the indexes kept beside the issues (the keys by project, an epic's children, the
// links, the status index for done issues), never from a look at every issue. The SQL engine
// receives the same set (a list of keys), so both answer the same.
import type { idsWithValue } from '../../indexes/field-index.js';
import { blockersOf } from '../../domain/links.js';
import { ISSUE_KEY_PATTERN, type Issue, type Resolution } from '../../model/schema.js';
import { issueNumber, sortedProjectKeys, type TrackerState } from '../../state/state.js';
import { DEFAULT_WORKFLOW, parseResolution } from '../../model/workflow.js';
import { isOpen, statusesIn } from '../../state/workflows.js';
import type { CompareOperator, Literal, Value } from './ast.js';
import { jqlError } from './errors.js';

/** An issue the store has, by key in any case; an unknown one is an error naming the project's range. */
export function knownIssue(state: TrackerState, text: string, column: number): Issue {
  const key = text.trim().toUpperCase();
  const issue = state.issues.get(key);
  if (issue !== undefined) return issue;
  if (!ISSUE_KEY_PATTERN.test(key)) throw jqlError(`'${text}' is not an issue key`, column, 'Issue keys look like PROJ-101.');
  const keys = state.issueKeysByProject.get(key.slice(0, key.lastIndexOf('-'))) ?? [];
  const help =
    keys.length === 0
      ? `Projects: ${sortedProjectKeys(state).join(', ') || 'none'}.`
      : `Its project's issues run from ${keys[0]} to ${keys[keys.length - 1]}.`;
  throw jqlError(`Unknown issue '${text}'`, column, help);
}

/** `key < PROJ-105` and the like: the issues of that project whose number compares so (Jira compares within a project). */
export function keysInOrder(state: TrackerState, op: CompareOperator, value: Literal): Set<string> {
  const key = value.text.trim().toUpperCase();
  if (!ISSUE_KEY_PATTERN.test(key))
    throw jqlError(`'${value.text}' is not an issue key`, value.column, 'Issue keys look like PROJ-101.');
  const project = key.slice(0, key.lastIndexOf('-'));
  if (!state.projects.has(project)) {
    throw jqlError(`Unknown project '${project}'`, value.column, `Projects: ${sortedProjectKeys(state).join(', ') || 'none'}.`);
  }
  const number = issueNumber(key);
  const holds: Record<string, (n: number) => boolean> = {
    '<': (n) => n < number,
    '<=': (n) => n <= number,
    '>': (n) => n > number,
    '>=': (n) => n >= number,
  };
  const test = holds[op];
  if (test === undefined) throw new Error(`no order for ${op}`);
  return new Set((state.issueKeysByProject.get(project) ?? []).filter((k) => test(issueNumber(k))));
}

/** The children of the named issues (an epic's, from the index of children). */
export function childrenOf(state: TrackerState, parents: readonly Literal[]): Set<string> {
  const keys = new Set<string>();
  for (const parent of parents) {
    for (const child of state.children.get(knownIssue(state, parent.text, parent.column).key) ?? []) keys.add(child);
  }
  return keys;
}

/** Every issue with a parent. */
export function everyChild(state: TrackerState): Set<string> {
  const keys = new Set<string>();
  for (const children of state.children.values()) for (const child of children) keys.add(child);
  return keys;
}

/** Jira's resolutions that are one of ours under another name. */
const JIRA_RESOLUTIONS: ReadonlyMap<string, Resolution> = new Map<string, Resolution>([
  ['fixed', 'done'],
  ['wontfix', 'wont_do'],
  ["won'tfix", 'wont_do'],
]);

/** A resolution as written, in any project's workflow, or null for Jira's Unresolved. */
export function resolutionNamed(state: TrackerState, value: Literal): Resolution | null {
  const squeezed = value.text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
  if (squeezed === 'unresolved') return null;
  const jira = JIRA_RESOLUTIONS.get(squeezed);
  if (jira !== undefined) return jira;
  const workflows = [DEFAULT_WORKFLOW, ...state.workflows.values()];
  for (const workflow of workflows) {
    try {
      return parseResolution(value.text, workflow);
    } catch {
      // Not this workflow's: the next may have it.
    }
  }
  const known = [...new Set(workflows.flatMap((workflow) => workflow.resolutions))];
  throw jqlError(`Unknown resolution '${value.text}'`, value.column, `Use one of: ${known.join(', ')}, Unresolved.`);
}

/**
 * The done issues with one of these resolutions: a done issue always has one (apply.ts), an
 * open one never, so the status index's sets of done statuses are all there is to look through
 * (the server's index, handed in: resolve.ts, ResolveIndexes).
 */
export function resolvedWith(state: TrackerState, resolutions: ReadonlySet<Resolution>, idsOf: typeof idsWithValue): Set<string> {
  const keys = new Set<string>();
  if (resolutions.size === 0) return keys;
  for (const status of statusesIn(state, 'done')) {
    idsOf(state, 'status', status).forEach((id) => {
      const issue = state.issues.at(id);
      if (resolutions.has(issue.resolution ?? 'done')) keys.add(issue.key);
    });
  }
  return keys;
}

/** How Jira names a link from the end that reads it, in our spelling. */
const LINK_NAMES = ['blocks', 'is_blocked_by', 'relates_to', 'duplicates', 'is_duplicated_by'] as const;

/** A function that gives issues: linkedIssues(KEY[, type]), blockedIssues(), blockingIssues(). */
export function issuesOf(state: TrackerState, value: Extract<Value, { kind: 'function' }>): Set<string> {
  switch (value.name) {
    case 'linkedIssues': {
      const [of, type] = value.args as [Literal, Literal | undefined];
      const issue = knownIssue(state, of.text, of.column);
      const wanted = type === undefined ? null : linkNamed(type);
      const links = state.links.get(issue.key) ?? [];
      return new Set(links.filter((link) => wanted === null || link.type === wanted).map((link) => link.key));
    }
    case 'blockedIssues':
      // Blocked by an open link: an issue that blocks it is not done yet.
      return new Set([...state.links.keys()].filter((key) => blockersOf(state, key).some((b) => isOpen(state, b.status))));
    case 'blockingIssues':
      // Open, and in the way of an open issue.
      return new Set(
        [...state.links]
          .filter(([key, links]) => {
            const issue = state.issues.get(key);
            return issue !== undefined && isOpen(state, issue.status) && links.some((link) => isOpenBlocked(state, link));
          })
          .map(([key]) => key),
      );
    default:
      throw new Error(`${value.name}() gives no issues`);
  }
}

function isOpenBlocked(state: TrackerState, link: { type: string; key: string }): boolean {
  const other = state.issues.get(link.key);
  return link.type === 'blocks' && other !== undefined && isOpen(state, other.status);
}

function linkNamed(type: Literal): (typeof LINK_NAMES)[number] {
  const squeezed = type.text
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  const name = LINK_NAMES.find((candidate) => candidate === squeezed);
  if (name !== undefined) return name;
  throw jqlError(
    `Unknown link type '${type.text}'`,
    type.column,
    `Use one of: ${LINK_NAMES.map((n) => `"${n.replace(/_/g, ' ')}"`).join(', ')}.`,
  );
}

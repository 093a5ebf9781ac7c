// Links between issues: blocks, relates to, duplicates, and an epic's children.
//
// A link is written once, from the end that says it (`PROJ-101 blocks PROJ-104`); each end
// reads it its own way (PROJ-104 `is_blocked_by` PROJ-101), see state.ts IssueLink. An
// issue's parent is a field (an epic's key), its children an index kept beside the issues.
// Asking for a link that is already there, or removing one that is not, changes nothing.
import { parseIssueKey } from '../model/args.js';
import { domainError } from '../model/errors.js';
import { parentRefusal, requireIssue } from '../state/lookup.js';
import { LINK_TYPES, type Issue, type LinkType } from '../model/schema.js';
import type { RecordDraft } from '../model/record-schema.js';
import { findLink, type IssueLink, type TrackerState } from '../state/state.js';
import { isDone } from '../state/workflows.js';

/** What link_issues accepts: the three link types, and parent (the epic `to` is the parent of `from`). */
export type LinkRequestType = LinkType | 'parent';
export const LINK_REQUEST_TYPES: readonly LinkRequestType[] = [...LINK_TYPES, 'parent'];

export interface LinkRequest {
  readonly from: string;
  readonly type: LinkRequestType;
  readonly to: string;
  readonly remove: boolean;
}

/** Format checks only, before the lock. "relates to", "Blocks", "is child of" are forgiven. */
export function parseLinkRequest(from: unknown, type: unknown, to: unknown, remove: unknown): LinkRequest {
  const squeezed =
    typeof type === 'string'
      ? type
          .trim()
          .toLowerCase()
          .replace(/[\s-]+/g, '_')
      : '';
  const known = squeezed === 'epic' || squeezed === 'child_of' ? 'parent' : squeezed;
  const linkType = LINK_REQUEST_TYPES.find((t) => t === known);
  if (linkType === undefined) {
    throw domainError('invalid_argument', `Unknown link type '${String(type)}'. Use one of: ${LINK_REQUEST_TYPES.join(', ')}.`);
  }
  return { from: parseIssueKey(from, 'from'), type: linkType, to: parseIssueKey(to, 'to'), remove: remove === true };
}

export function planLink(state: TrackerState, request: LinkRequest): RecordDraft | null {
  const from = requireIssue(state, request.from);
  const to = requireIssue(state, request.to);
  if (from.key === to.key) throw domainError('invalid_argument', `${from.key} cannot be linked to itself.`);
  if (request.type === 'parent') return planParent(state, from, to, request.remove);
  const link = request.type;
  // Both ends of relates_to read relates_to, so it is found whichever way round it was written.
  const present = findLink(state, from.key, link, to.key) !== undefined;
  if (request.remove) return present ? { type: 'issue.unlinked', key: from.key, link, to: to.key } : null;
  if (present) return null;
  if (link === 'blocks') refuseCycle(state, from.key, to.key);
  return { type: 'issue.linked', key: from.key, link, to: to.key };
}

function planParent(state: TrackerState, child: Issue, epic: Issue, remove: boolean): RecordDraft | null {
  const current = child.parent ?? null;
  if (remove) return current === epic.key ? { type: 'issue.parent_changed', key: child.key, from: current, to: null } : null;
  if (current === epic.key) return null;
  const refusal = parentRefusal(state, child, epic);
  if (refusal !== null) throw domainError('invalid_argument', refusal);
  return { type: 'issue.parent_changed', key: child.key, from: current, to: epic.key };
}

/** `from blocks to` would close a loop if `to` already blocks `from`, however indirectly. */
function refuseCycle(state: TrackerState, from: string, to: string): void {
  const seen = new Set<string>();
  const pending = [to];
  while (pending.length > 0) {
    const key = pending.pop() as string;
    if (key === from) {
      throw domainError(
        'conflict',
        `${from} cannot block ${to}: ${to} already blocks ${from} (directly or through other issues), and neither could ever start.`,
      );
    }
    if (seen.has(key)) continue;
    seen.add(key);
    for (const link of state.links.get(key) ?? []) if (link.type === 'blocks') pending.push(link.key);
  }
}

/** The issues that block `key`. */
export function blockersOf(state: TrackerState, key: string): Issue[] {
  return (state.links.get(key) ?? [])
    .filter((link) => link.type === 'is_blocked_by')
    .map((link) => state.issues.get(link.key))
    .filter((issue): issue is Issue => issue !== undefined);
}

/** Links as get_issue shows them: type and key only, so they stay true while other issues change. */
export function linkKeys(state: TrackerState, key: string): readonly IssueLink[] {
  return state.links.get(key) ?? [];
}

export interface LinkedIssue {
  readonly type: IssueLink['type'] | 'parent' | 'child';
  readonly key: string;
  readonly title: string;
  readonly status: Issue['status'];
  readonly priority: Issue['priority'];
}

export interface IssueLinks {
  readonly key: string;
  /** True when every issue that blocks this one is done (or none does). */
  readonly unblocked: boolean;
  readonly links: readonly LinkedIssue[];
}

/** Every link of an issue with what the other issue is now: the resource jira://issue/{key}/links. */
export function issueLinks(state: TrackerState, rawKey: unknown): IssueLinks {
  const issue = requireIssue(state, parseIssueKey(rawKey));
  const linked = (type: LinkedIssue['type'], key: string): LinkedIssue[] => {
    const other = state.issues.get(key);
    return other === undefined ? [] : [{ type, key, title: other.title, status: other.status, priority: other.priority }];
  };
  const links = [
    ...(issue.parent ? linked('parent', issue.parent) : []),
    ...(state.children.get(issue.key) ?? []).flatMap((key) => linked('child', key)),
    ...linkKeys(state, issue.key).flatMap((link) => linked(link.type, link.key)),
  ];
  const unblocked = blockersOf(state, issue.key).every((blocker) => isDone(state, blocker.status));
  return { key: issue.key, unblocked, links };
}

// Views around one issue, and the ready view, as resources and as get_issue's extras:
//
//   jira://issue/{key}/history   who changed what, when: the most recent 100 changes, with the total
//   jira://issue/{key}/links     its links both ways, with each linked issue's status, and whether it is unblocked
//   jira://ready{?project}       what to do next: the open issues of the active sprints whose blockers are done
//
// Claude Code reads no resource templates, so each has a tool twin: get_issue with
// `include: ["history", "links"]`, and search_issues with `ready: true`. Each answer is
// bounded and says how many there are in all.

import * as z from 'zod/mini';
import { compileUriTemplate } from '../../protocol/uri-template.js';
import { HISTORY_SHOWN_MAX, type Issue, type IssueHistory, type TrackerStore } from '../store/index.js';

export const VIEW_TEMPLATES = {
  history: compileUriTemplate('jira://issue/{key}/history'),
  links: compileUriTemplate('jira://issue/{key}/links'),
  ready: compileUriTemplate('jira://ready{?project}'),
};

/** Links one answer shows; an issue may have more (links are not capped), and `total` says so. */
export const LINKS_SHOWN_MAX = 100;
/** Ready issues one read of jira://ready shows; search_issues with ready: true pages through all. */
export const READY_SHOWN_MAX = 100;

export const HistorySchema = z.object({
  key: z.string(),
  total: z.int(),
  entries: z.array(
    z.object({ seq: z.nullable(z.int()), at: z.string(), by: z.nullable(z.string()), type: z.string(), change: z.string() }),
  ),
});

export const LinkedSchema = z.object({
  key: z.string(),
  unblocked: z.boolean(),
  total: z.int(),
  links: z.array(z.object({ type: z.string(), key: z.string(), title: z.string(), status: z.string(), priority: z.string() })),
});

export function historyView(store: TrackerStore, key: string, limit?: number): IssueHistory {
  const history = store.getHistory(key, limit);
  return { ...history, entries: [...history.entries] };
}

export function linksView(store: TrackerStore, key: string): z.infer<typeof LinkedSchema> {
  const { key: canonical, unblocked, links } = store.getIssueLinks(key);
  return { key: canonical, unblocked, total: links.length, links: links.slice(0, LINKS_SHOWN_MAX) };
}

/** An unknown project is an error naming the known ones (the store's), never an empty list. */
export function readyView(store: TrackerStore, project: string | undefined, summary: (issue: Issue) => object) {
  const ready = store.getReady(project);
  const shown = ready.slice(0, READY_SHOWN_MAX);
  return { project: project ?? null, total: ready.length, shown: shown.length, issues: shown.map(summary) };
}

/** The JSON a view URI reads, or undefined when the URI is not one of these views. */
export function readView(
  store: TrackerStore,
  uri: string,
  summary: (issue: Issue) => object,
): Record<string, unknown> | undefined {
  let vars = VIEW_TEMPLATES.ready.match(uri);
  if (vars) return readyView(store, vars.project, summary);
  if ((vars = VIEW_TEMPLATES.history.match(uri))) return { ...historyView(store, vars.key ?? '', HISTORY_SHOWN_MAX) };
  if ((vars = VIEW_TEMPLATES.links.match(uri))) return linksView(store, vars.key ?? '');
  return undefined;
}

/** get_issue's `include`: the extras asked for. */
export const IncludeSchema = z.array(z.enum(['history', 'links']));

export function issueExtras(store: TrackerStore, key: string, include: readonly string[]): Record<string, unknown> {
  return {
    ...(include.includes('history') ? { history: historyView(store, key) } : {}),
    ...(include.includes('links') ? { linked: linksView(store, key) } : {}),
  };
}

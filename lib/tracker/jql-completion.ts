// Completion for the `jql` variable of jira://search{?jql}: the last word of the query typed so
// far, completed to a field name, a keyword, a function or a value the tracker knows (project,
// person, status, priority, sprint). Each suggestion is the whole query with that word finished,
// because a host puts the chosen value in place of everything typed.
// https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion

import type { Completer } from '../../protocol/resources.js';
import { FIELDS, FUNCTIONS, KEYWORDS, type TrackerStore } from '../store/index.js';

/** What an empty query is offered: a start for each kind of question. */
const EXAMPLES = [
  'assignee = currentUser() AND status != done ORDER BY priority',
  'sprint IN openSprints() AND priority = P0',
  'project = PROJ AND status = blocked',
  'updated >= -7d ORDER BY updated DESC',
];

const SUGGESTIONS_MAX = 100;

export function jqlCompleter(store: TrackerStore): Completer {
  return (value) => {
    if (value.trim() === '') return { values: EXAMPLES, total: EXAMPLES.length };
    // The word being typed runs from the last space, bracket or comma to the end.
    const start = Math.max(value.lastIndexOf(' '), value.lastIndexOf('('), value.lastIndexOf(','), value.lastIndexOf('=')) + 1;
    const head = value.slice(0, start);
    const word = value.slice(start);
    const lower = word.toLowerCase();
    const words = [
      ...FIELDS,
      ...KEYWORDS,
      ...FUNCTIONS.map((name) => `${name}()`),
      ...store.completeProjectKeys(word).values,
      ...store.completeStatuses(word).values,
      ...store.completePriorities(word).values,
      ...store.completeAssignees(word).values,
      ...store.completeSprintIds(word).values,
    ].filter((candidate) => candidate.toLowerCase().startsWith(lower) && candidate !== word);
    const unique = [...new Set(words)];
    return { values: unique.slice(0, SUGGESTIONS_MAX).map((candidate) => head + candidate), total: unique.length };
  };
}

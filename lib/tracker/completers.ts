// Completion of template and prompt arguments (completion/complete): what the store offers for
// the value typed so far, and how many it has in all. JQL's completer: jql-completion.ts.

import type { Completer } from '../../protocol/resources.js';
import { SPRINT_STATES, type TrackerStore } from '../store/index.js';

const suggestions = (completion: { values: readonly string[]; total: number }) => ({
  values: completion.values,
  total: completion.total,
});

export function completers(store: TrackerStore): Record<string, Completer> {
  return {
    // context.arguments (2025-06-18→): a chosen project narrows the keys and sprints offered.
    issueKey: (value, chosen) =>
      suggestions(store.completeIssueKeys(chosen.project_key && !value ? `${chosen.project_key}-` : value)),
    projectKey: (value) => suggestions(store.completeProjectKeys(value)),
    status: (value, chosen) => suggestions(store.completeStatuses(value, chosen.project_key)),
    priority: (value) => suggestions(store.completePriorities(value)),
    assignee: (value) => suggestions(store.completeAssignees(value)),
    sprintId: (value, chosen) => suggestions(store.completeSprintIds(value, chosen.project_key)),
    sprintState: (value) => {
      const values = SPRINT_STATES.filter((state) => state.startsWith(value.toLowerCase()));
      return { values, total: values.length };
    },
  };
}

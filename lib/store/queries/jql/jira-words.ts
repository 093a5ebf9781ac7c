// Jira's words (fields and functions) this tracker does not have, each with what to write here instead or a plain
// "not kept": someone coming from Jira types them from habit, and "Unknown field" alone would
// leave them guessing whether the data is missing or only spelled otherwise.

/** Field names (lower-cased, spaces kept) → the sentence that answers them. */
const FIELDS: ReadonlyMap<string, string> = new Map([
  ['affectedversion', 'Affected versions are not kept by this tracker: a label (labels = v2-1) can stand in.'],
  ['epic link', 'The epic is the parent here: parent = PROJ-109.'],
  ['epiclink', 'The epic is the parent here: parent = PROJ-109.'],
  ['creator', 'The creator is the reporter here: reporter = alice.'],
  ['resolved', 'The time of resolution is not searchable: statusCategory = Done AND updated >= -7d comes near.'],
  ['resolutiondate', 'The time of resolution is not searchable: statusCategory = Done AND updated >= -7d comes near.'],
  ['story points', 'Story points are not searchable yet; they are summed by the sprint reports.'],
  ['environment', 'The environment is not kept by this tracker: text ~ words searches the description.'],
  ['watcher', 'Watchers are not kept by this tracker.'],
  ['voter', 'Votes are not kept by this tracker.'],
  ['votes', 'Votes are not kept by this tracker.'],
  ['timespent', 'Time tracking is not kept by this tracker.'],
  ['originalestimate', 'Time tracking is not kept by this tracker; story points are the estimate.'],
  ['remainingestimate', 'Time tracking is not kept by this tracker; story points are the estimate.'],
  ['worklogauthor', 'Work logs are not kept by this tracker.'],
  ['worklogdate', 'Work logs are not kept by this tracker.'],
  ['attachments', 'Attachments are not searchable: get_issue lists them.'],
  ['rank', 'Rank is not kept by this tracker: ORDER BY priority, key.'],
  ['team', 'Teams are not kept by this tracker: assignee IN (alice, bob).'],
  ['issuefunction', "issueFunction is ScriptRunner's: key IN linkedIssues(PROJ-1) and key IN blockedIssues() are built in."],
  ['lastviewed', 'What was viewed is not kept by this tracker.'],
]);

/** Function names (lower-cased) → the sentence that answers them. */
const FUNCTIONS: ReadonlyMap<string, string> = new Map([
  ['membersof', 'Groups are not kept by this tracker: assignee IN (alice, bob).'],
  ['issuehistory', 'What was viewed is not kept by this tracker: updated >= -7d comes near.'],
  ['watchedissues', 'Watchers are not kept by this tracker.'],
  ['votedissues', 'Votes are not kept by this tracker.'],
  ['updatedby', 'Who changed an issue is in its history (get_issue), not in queries.'],
  ['releasedversions', 'Versions are not released here: fixVersion IN ("2.1", "2.2") names them.'],
  ['unreleasedversions', 'Versions are not released here: fixVersion IN ("2.1", "2.2") names them.'],
  ['standardissuetypes', 'The types are bug, story, task and epic: type IN (bug, story, task).'],
  ['subtaskissuetypes', 'A sub-task is a task here, its epic the parent: parent IS NOT EMPTY.'],
  ['projectsleadbyuser', 'Ask for the project: project = PROJ (jira://projects lists the leads).'],
]);

/** The sentence for a Jira function we do not have, or null when the name is not Jira's either. */
export function jiraFunctionHelp(name: string): string | null {
  return FUNCTIONS.get(name.trim().toLowerCase()) ?? null;
}

/** The sentence for a Jira field we do not have, or null when the name is not Jira's either. */
export function jiraFieldHelp(name: string): string | null {
  const lower = name.trim().toLowerCase();
  const known = FIELDS.get(lower) ?? FIELDS.get(lower.replace(/s$/, ''));
  if (known !== undefined) return known;
  // cf[10016]: Jira's custom field by its number; here a custom field is named.
  if (/^cf\[\d+\]$/.test(lower)) return 'Custom fields are named here, in quotes: "Story Type" = Research.';
  return null;
}

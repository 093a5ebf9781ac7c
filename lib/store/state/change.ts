// What applying one record changed (apply.ts): which issues, sprints and projects, and one line
// for people. Its own file because both the code that changes the state and the code that
// notes the change (history.ts, the journal, the tracker's notifications) read it.

/** What one record changed; also the change description returned by mutations. */
export interface Change {
  /** One line for people: "PROJ-101 status: todo → in_progress". */
  readonly description: string;
  /** Issue keys whose content changed. */
  readonly issues: readonly string[];
  /** Sprint ids whose contents or stats changed. */
  readonly sprints: readonly string[];
  /** Project keys whose contents or stats changed. */
  readonly projects: readonly string[];
  /** True when an issue was created (lists of issues changed, not only their contents). */
  readonly issueSetChanged: boolean;
}

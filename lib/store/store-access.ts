// What the store's reads (store-reads.ts) and mutations (store-mutations.ts) are given by
// storeOn (store.ts), which keeps the rest: the backend's lifecycle, the change listeners, who
// a call acts for.
import type { Plan, StoreBackend } from './backend/record-log.js';
import type { PeopleCommands } from './domain/people.js';
import type { SprintCommands } from './domain/sprints.js';
import type { Change } from './state/change.js';
import type { TrackerState } from './state/state.js';
import type { ChangeEvent, TrackerStore } from './store-api.js';

export interface StoreAccess {
  readonly backend: StoreBackend;
  readonly now: () => Date;
  /** Who the current call acts for (many users share one store over HTTP). */
  who(): { readonly user: string | null; readonly actor: string };
  /** Runs a query on the newest state, after a cheap look for what other processes appended. */
  read<T>(query: (state: TrackerState) => T): T;
  /** Appends the record the plan makes, signed by the actor; resolves once it is durable. */
  mutate(plan: Plan): Promise<Change | null>;
}

/** The store's methods that storeOn answers itself. */
type StoreLifecycle = 'path' | 'onChange' | 'refresh' | 'actingAs' | 'close';

/** The store's commands: every method that may append a record (the people's with their two reads). */
export type StoreMutations = Pick<
  TrackerStore,
  | 'createIssue'
  | 'updateStatus'
  | 'assignIssue'
  | 'addComment'
  | 'addAttachment'
  | 'moveToSprint'
  | 'updateIssue'
  | 'linkIssues'
  | 'bulkUpdateStatus'
  | 'importProject'
  | 'importSprint'
  | 'importIssue'
  | 'importUpdate'
  | 'importAttachment'
  | 'setWorkflow'
  | 'defineFields'
  | keyof SprintCommands
  | keyof PeopleCommands
>;

/** The store's reads: everything else it offers. */
export type StoreReads = Omit<TrackerStore, keyof StoreMutations | StoreLifecycle>;

/** Changes as one event: what any of them touched. */
export function mergeChanges(source: ChangeEvent['source'], changes: readonly Change[]): ChangeEvent {
  const union = (pick: (c: Change) => readonly string[]): string[] => [...new Set(changes.flatMap(pick))];
  return {
    source,
    changes,
    issues: union((c) => c.issues),
    sprints: union((c) => c.sprints),
    projects: union((c) => c.projects),
    issueSetChanged: changes.some((c) => c.issueSetChanged),
  };
}

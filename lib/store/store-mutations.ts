// The store's mutations: each parses its arguments, plans against the newest state and appends
// one record (StoreAccess.mutate), then answers from the state the record made. A plan that
// changes nothing appends nothing and says so.
import type { Change } from './state/change.js';
import { parseHandle, parseIssueKey, parseProjectKey, parseText } from './model/args.js';
import { planDefineFields, projectFieldsOf } from './domain/fields.js';
import {
  parseCreateIssue,
  planAssignment,
  planComment,
  planCreateIssue,
  planSprintMove,
  planStatusChange,
} from './domain/commands.js';
import { domainError, isDomainError } from './model/errors.js';
import { requireIssue, requireSprint, sprintIdOf } from './state/lookup.js';
import { LIMITS, type Comment, type Issue } from './model/schema.js';
import type { Plan } from './backend/record-log.js';
import { parseWorkflow, planSetWorkflow } from './domain/workflows.js';
import { statusesKnownAs } from './state/workflows.js';
import { parseLinkRequest, planLink } from './domain/links.js';
import { sprintCommands } from './domain/sprints.js';
import { peopleCommands } from './domain/people.js';
import { partlyDone, updateSteps } from './domain/update.js';
import { attachmentInfo, parseAttachment, planAttachment, requireAttachment } from './domain/attachments.js';
import {
  importUpdateSteps,
  parseTime,
  parseImportIssue,
  planImportIssue,
  planImportProject,
  planImportSprint,
} from './domain/import-commands.js';
import type { BulkOptions, BulkOutcome, BulkResult, IssueMutation } from './store-api.js';
import { BULK_MAX } from './store-api.js';
import { mergeChanges, type StoreAccess, type StoreMutations } from './store-access.js';

/** The store's mutations over `access`. */
export function storeMutations(access: StoreAccess): StoreMutations {
  const { backend, now, who, read, mutate } = access;

  async function mutateIssue(key: string, plan: Plan, unchanged: (issue: Issue) => string): Promise<IssueMutation> {
    const change = await mutate(plan);
    const issue = requireIssue(backend.state(), key);
    return { issue, change: change ?? noChange(unchanged(issue)) };
  }

  async function updateStatus(
    rawKey: string,
    rawStatus: string,
    options: { readonly resolution?: string } = {},
  ): Promise<IssueMutation> {
    const key = parseIssueKey(rawKey);
    // Their format here; their names in the workflow of the issue's project, under the lock (planStatusChange).
    const status = parseText(rawStatus, 'status', 1, LIMITS.statusNameMax);
    const resolution =
      options.resolution === undefined ? undefined : parseText(options.resolution, 'resolution', 1, LIMITS.statusNameMax);
    return mutateIssue(
      key,
      (state) => planStatusChange(state, key, status, resolution),
      (issue) => `${key} is already ${issue.status}; nothing changed.`,
    );
  }

  return {
    async createIssue(input) {
      const request = parseCreateIssue(input, who().actor);
      const change = await mutate((state, at) => planCreateIssue(state, request, at));
      // A create always appends, so change is never null here.
      const key = change?.issues[0] ?? '';
      return { issue: requireIssue(backend.state(), key), change: change ?? noChange('nothing created') };
    },

    updateStatus,

    assignIssue(rawKey, rawAssignee) {
      const key = parseIssueKey(rawKey);
      const assignee = rawAssignee === null ? null : parseHandle(rawAssignee, 'assignee');
      return mutateIssue(
        key,
        (state) => planAssignment(state, key, assignee),
        () => `${key} is already ${assignee === null ? 'unassigned' : `assigned to ${assignee}`}; nothing changed.`,
      );
    },

    async addComment(rawKey, comment) {
      const key = parseIssueKey(rawKey);
      const body = parseText(comment.body, 'Comment body', 1, LIMITS.commentMax);
      const author = comment.author === undefined ? who().actor : parseHandle(comment.author, 'author');
      let id = 0;
      const mutation = await mutateIssue(
        key,
        (state, at) => {
          const draft = planComment(state, key, author, body, at);
          id = draft.comment.id;
          return draft;
        },
        () => 'nothing changed',
      );
      // Comments are never removed, so the one just added stays at its place in the log.
      return { ...mutation, comment: backend.state().issues.entry(key)?.comments[id - 1] as Comment };
    },

    async addAttachment(rawKey, input) {
      const key = parseIssueKey(rawKey);
      const request = parseAttachment(input);
      const author = input.author === undefined ? who().actor : parseHandle(input.author, 'author');
      const mutation = await mutateIssue(
        key,
        (state, at) => planAttachment(state, key, request, author, at),
        () => 'nothing changed',
      );
      const state = backend.state();
      // Names are unique per issue and attachments never removed: this one is ours.
      const added = requireAttachment(state, key, request.name);
      return { ...mutation, attachment: attachmentInfo(added), count: state.attachments.get(key)?.length ?? 0 };
    },

    moveToSprint(rawKey, rawSprint) {
      const key = parseIssueKey(rawKey);
      const sprint = rawSprint === null ? null : parseText(rawSprint, 'sprint', 1, LIMITS.nameMax);
      const project = key.slice(0, key.lastIndexOf('-'));
      return mutateIssue(
        key,
        (state) => planSprintMove(state, key, sprint === null ? null : sprintIdOf(state, sprint, project)),
        () => `${key} is already in ${sprint ?? 'the backlog'}; nothing changed.`,
      );
    },

    async updateIssue(rawKey, input) {
      const key = parseIssueKey(rawKey);
      const steps = updateSteps(key, input ?? {}, who().actor);
      // Every part is checked against the data before the first is written (see update.ts).
      read((state) => steps.forEach((step) => step(state, now().toISOString())));
      const done: Change[] = [];
      for (const step of steps) {
        try {
          const change = await mutate(step);
          if (change !== null) done.push(change);
        } catch (error) {
          throw isDomainError(error)
            ? partlyDone(
                done.map((c) => c.description),
                error,
              )
            : error;
        }
      }
      const issue = requireIssue(backend.state(), key);
      if (done.length === 0) return { issue, change: noChange(`${key} already has those values; nothing changed.`) };
      const { issues, sprints, projects } = mergeChanges('local', done);
      const description = done.map((c) => c.description).join('; ');
      return { issue, change: { description, issues, sprints, projects, issueSetChanged: false } };
    },

    linkIssues(rawFrom, rawType, rawTo, remove = false) {
      const request = parseLinkRequest(rawFrom, rawType, rawTo, remove);
      return mutateIssue(
        request.from,
        (state) => planLink(state, request),
        () => `${request.from} ${remove ? 'has no such link' : 'is already linked so'}; nothing changed.`,
      );
    },

    async importProject(input) {
      return (await mutate((state) => planImportProject(state, input))) ?? noChange('nothing imported');
    },

    async importSprint(input) {
      const change = await mutate((state) => planImportSprint(state, input));
      return requireSprint(backend.state(), change?.sprints[0] ?? '');
    },

    async importIssue(input) {
      const request = parseImportIssue(input, who().actor, now().toISOString());
      const change = await mutate((state) => planImportIssue(state, request));
      return requireIssue(backend.state(), change?.issues[0] ?? '');
    },

    async importUpdate(rawKey, input) {
      const key = parseIssueKey(rawKey);
      const steps = importUpdateSteps(key, parseImportIssue(input, who().actor, now().toISOString()));
      read((state) => steps.forEach((step) => step(state, now().toISOString())));
      const changes: string[] = [];
      for (const step of steps) {
        const change = await mutate(step);
        if (change !== null) changes.push(change.description);
      }
      return { issue: requireIssue(backend.state(), key), changes };
    },

    async importAttachment(rawKey, attachment) {
      const key = parseIssueKey(rawKey);
      const { name, mime_type: mimeType, content } = attachment;
      const request = parseAttachment({ name, mimeType, content });
      const author = parseHandle(attachment.author, 'author');
      const at = parseTime(attachment.created_at, 'created_at');
      await mutate((state) => planAttachment(state, key, request, author, at));
      return attachmentInfo(requireAttachment(backend.state(), key, request.name));
    },

    bulkUpdateStatus: (keys, status, bulkOptions = {}) => {
      read((state) => statusesKnownAs(state, status));
      return bulkUpdateStatus(updateStatus, keys, status, bulkOptions);
    },

    async setWorkflow(rawProject, input, mapping = {}) {
      const project = parseProjectKey(rawProject);
      const workflow = parseWorkflow(input);
      const change = await mutate((state) => planSetWorkflow(state, project, workflow, mapping));
      return { workflow, change: change ?? noChange(`${project}'s workflow is already this one; nothing changed.`) };
    },

    async defineFields(rawProject, fields) {
      const project = parseProjectKey(rawProject);
      const change = await mutate((state) => planDefineFields(state, project, fields));
      return {
        fields: projectFieldsOf(backend.state(), project),
        change: change ?? noChange(`${project}'s fields are already so; nothing changed.`),
      };
    },

    ...sprintCommands(mutate, () => backend.state()),
    ...peopleCommands(mutate),
  };
}

/**
 * One status change at a time, each durable on its own, so a cancelled or
 * failed run leaves every reported change applied and nothing half-done.
 * A bad status fails the whole call up front; a bad key fails only its item.
 */
async function bulkUpdateStatus(
  updateStatus: (key: string, status: string) => Promise<IssueMutation>,
  keys: readonly string[],
  status: string,
  options: BulkOptions,
): Promise<BulkResult> {
  if (!Array.isArray(keys) || keys.length === 0)
    throw domainError('invalid_argument', 'keys must be a non-empty list of issue keys.');
  if (keys.length > BULK_MAX) {
    throw domainError('invalid_argument', `At most ${BULK_MAX} issues per bulk update; got ${keys.length}. Split the list.`);
  }
  const results: BulkOutcome[] = [];
  for (const key of keys) {
    // Each update settles in microtasks only; without a turn of the event loop between
    // them, a cancellation arriving on stdin could not be read until the whole run ended.
    await new Promise((resolve) => setImmediate(resolve));
    if (options.signal?.aborted === true) break;
    results.push(await updateOne(updateStatus, key, status));
    options.onProgress?.(results.length, keys.length);
  }
  return {
    results,
    changed: results.filter((r) => r.ok && r.changed).length,
    failed: results.filter((r) => !r.ok).length,
    not_attempted: keys.slice(results.length),
    cancelled: results.length < keys.length,
  };
}

/** Domain errors become the item's outcome; anything else (the file is unusable) stops the run. */
async function updateOne(
  updateStatus: (key: string, status: string) => Promise<IssueMutation>,
  key: string,
  status: string,
): Promise<BulkOutcome> {
  try {
    const { change } = await updateStatus(key, status);
    return { key, ok: true, changed: change.issues.length > 0, description: change.description };
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return { key: String(key), ok: false, error: error.message };
  }
}

function noChange(description: string): Change {
  return { description, issues: [], sprints: [], projects: [], issueSetChanged: false };
}

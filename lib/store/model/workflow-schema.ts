// A project's workflow as a zod schema: the type of workflow.ts and of the journal's
// project.workflow_set record (record-schema.ts). Like record-schema.ts, the server imports
// only its types: opening a journal checks a workflow with record-check.ts's hand check, and
// setting one with workflow.ts checkWorkflow, which says what is wrong in the tracker's words.
import * as z from 'zod/mini';
import { LIMITS, ResolutionSchema, StatusSchema } from './schema.js';

/** Jira's three status categories: what JQL's statusCategory reads, and what "open" means. */
export const StatusCategorySchema = z.enum(['todo', 'inprogress', 'done']);

export const WorkflowStatusSchema = z.object({
  id: StatusSchema,
  name: z.string().check(z.minLength(1), z.maxLength(LIMITS.statusNameMax)),
  category: StatusCategorySchema,
});

export const WorkflowSchema = z.object({
  /** The first is where a new issue starts. */
  statuses: z.array(WorkflowStatusSchema).check(z.minLength(1), z.maxLength(LIMITS.workflowStatusesMax)),
  /** From a status's id, the ids it may move to. */
  transitions: z.record(StatusSchema, z.array(StatusSchema).check(z.maxLength(LIMITS.workflowStatusesMax))),
  /** Why an issue may be done; the first is the one a close without a resolution gets. */
  resolutions: z.array(ResolutionSchema).check(z.minLength(1), z.maxLength(LIMITS.workflowResolutionsMax)),
  /** Whether an open issue may go straight to a done status from wherever it is, with a resolution. */
  close_from_any_open: z.boolean(),
});

export type StatusCategory = z.infer<typeof StatusCategorySchema>;
export type WorkflowStatus = z.infer<typeof WorkflowStatusSchema>;
export type Workflow = z.infer<typeof WorkflowSchema>;

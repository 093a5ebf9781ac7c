// The store's part of the companion dist/mcp-tracker-reads.cjs (lib/reads-companion.ts): the
// store's reads that a start and an ordinary session (lists, searches by filter, reading and
// writing issues) do not make, in one file the server requires on the first such read, or in
// the first quiet moment after a stdio start (lib/main.ts). Two seams load it, each from
// source its own part:
// - the query language (queries/jql-loader.ts: parser, printer, resolver);
// - the reads below (occasional-reads-loader.ts): what a sprint held and a project's velocity,
//   the completions of an argument, and the whole data as an export.
// Each is a synchronous read of the store (a resource read, a completion, the resource watch's
// fingerprint inside a change), so the file is CommonJS, which Node 20 `require`s at once.
export { parseQuery, printQuery, resolve } from './queries/jql/language.js';
export { projectVelocity, sprintReport } from './domain/sprint-report.js';
export {
  completeAssignees,
  completeIssueKeys,
  completePriorities,
  completeProjectKeys,
  completeSprintIds,
  completeStatuses,
} from './domain/completions.js';
export { snapshotOf } from './queries/snapshot.js';

// The entry of dist/mcp-tracker-reads.cjs, the companion of the reads a start and an ordinary
// session do not make: the store's (store/occasional-reads.ts: the query language, sprint
// reports, completions, the export) and the tracker's burndown chart as SVG
// (tracker/burndown-svg.ts). Each seam's loader requires this one file in the bundle, and its
// own module from source.
export * from './store/occasional-reads.js';
export { burndownSvg } from './tracker/burndown-svg.js';

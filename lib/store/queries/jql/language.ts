// The query language (in the bundle, part of the companion dist/mcp-tracker-reads.cjs): a query's text read
// into its tree (parser.ts), printed back in one spelling (printer.ts), and resolved against the
// store into conditions (resolve.ts). A server that is never asked a query never loads it; the
// store reaches it through ../jql-loader.ts, and what runs a resolved query (plan.ts,
// evaluate.ts, exact.ts, the indexes) stays in the server.
export { parseQuery } from './parser.js';
export { printQuery } from './printer.js';
export { resolve } from './resolve.js';

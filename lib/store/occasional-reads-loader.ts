// The store's occasional reads (occasional-reads.ts: sprint reports and velocity, completions,
// the export's snapshot), loaded on the first of them, not at start. In the bundle, build.mjs
// defines __MCP_TRACKER_READS_BUNDLE__ as dist/mcp-tracker-reads.cjs, the companion that also
// holds the query language (queries/jql-loader.ts); `require` loads it once for both seams.
// Synchronous for the same reasons as the query language's seam: each is a synchronous read.
// What crosses: the state goes in, plain data comes back, mistakes as the store's plain tagged
// errors; a missing file is a CompanionMissing naming it (lib/companion-bundle.ts).
import { requireCompanion } from '../companion-bundle.js';

export type OccasionalReads = Omit<typeof import('./occasional-reads.js'), 'parseQuery' | 'printQuery' | 'resolve'>;

declare const __MCP_TRACKER_READS_BUNDLE__: string | undefined;

let loaded: OccasionalReads | undefined;

/** The occasional reads, loaded on the first call (a failed load is tried again on the next); `what` names the read. */
export function occasionalReads(what: string): OccasionalReads {
  return (loaded ??= load(what));
}

function load(what: string): OccasionalReads {
  const specifier =
    typeof __MCP_TRACKER_READS_BUNDLE__ === 'string'
      ? new URL(__MCP_TRACKER_READS_BUNDLE__, import.meta.url).href
      : './occasional-reads.js';
  return requireCompanion<OccasionalReads>(specifier, import.meta.url, what);
}

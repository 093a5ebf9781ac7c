// The query language (jql/language.ts: the parser, the printer and the resolver), loaded on the
// first query, not at start: a server that only lists, reads and writes never parses it. In the
// bundle, build.mjs defines __MCP_TRACKER_READS_BUNDLE__ as dist/mcp-tracker-reads.cjs, the companion
// that also holds the store's other occasional reads (../occasional-reads.ts).
//
// Unlike the other seams (lib/companion-bundle.ts), this one loads at once, not with a promise:
// a search is a synchronous read of the store, and so are its callers that cannot wait (the
// resource watch fingerprints a jira://search resource inside a change's synchronous work, the
// engine spells a subscribed URI canonically, printQuery of parseQuery, before it files the
// subscription). So the companion is CommonJS, which Node 20 can `require`; the first query
// pays for reading and compiling it, once per process.
//
// What crosses the seam: the state goes in (its maps and the issue table's methods are read),
// with the server's own status index (resolve.ts, ResolveIndexes: the companion's copy of
// indexes/ would build indexes no write keeps current); trees and conditions come back as
// plain data, a query's mistakes as the store's plain tagged errors.
import { requireCompanion } from '../../companion-bundle.js';
import { idsWithValue } from '../indexes/field-index.js';
import type { TrackerState } from '../state/state.js';
import type { Expression, Query } from './jql/ast.js';
import type { Condition, ResolveContext } from './jql/conditions.js';

type LanguageModule = typeof import('./jql/language.js');

/** What the store asks of the query language: a query's tree, its canonical text, its meaning. */
export interface QueryLanguage {
  parseQuery(text: unknown): Query;
  printQuery(query: Query): string;
  resolve(state: TrackerState, expression: Expression, context: ResolveContext): Condition;
}

declare const __MCP_TRACKER_READS_BUNDLE__: string | undefined;

let loaded: QueryLanguage | undefined;

/** The query language, loaded on the first call (a failed load is tried again on the next). */
export function queryLanguage(): QueryLanguage {
  return (loaded ??= withServerIndexes(loadLanguage()));
}

function loadLanguage(): LanguageModule {
  const specifier =
    typeof __MCP_TRACKER_READS_BUNDLE__ === 'string'
      ? new URL(__MCP_TRACKER_READS_BUNDLE__, import.meta.url).href
      : './jql/language.js';
  return requireCompanion<LanguageModule>(specifier, import.meta.url, 'a query (jql)');
}

const withServerIndexes = (language: LanguageModule): QueryLanguage => ({
  parseQuery: language.parseQuery,
  printQuery: language.printQuery,
  resolve: (state, expression, context) => language.resolve(state, expression, context, { idsWithValue }),
});

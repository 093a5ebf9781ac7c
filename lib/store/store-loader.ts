// Loading the PostgreSQL backend only when --store names a database. In the bundle,
// build.mjs defines __MCP_TRACKER_POSTGRES_BUNDLE__ as the file name of the separate bundle
// beside it (dist/mcp-tracker-postgres.mjs, which carries the `pg` client library), so the
// default bundle stays its size and a journal user never loads pg. From source, the module
// is imported directly.
import { importCompanion } from '../companion-bundle.js';

type PostgresModule = typeof import('./postgres/index.js');

declare const __MCP_TRACKER_POSTGRES_BUNDLE__: string | undefined;

export async function loadPostgresBackend(): Promise<PostgresModule> {
  const specifier =
    typeof __MCP_TRACKER_POSTGRES_BUNDLE__ === 'string'
      ? new URL(__MCP_TRACKER_POSTGRES_BUNDLE__, import.meta.url).href
      : './postgres/index.js';
  return importCompanion<PostgresModule>(() => import(specifier), specifier, '--store postgres://');
}

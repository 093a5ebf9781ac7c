// The exchange room (import and export as text, with a dry run) for the tools that offer it
// (lib/tracker/tools-exchange.ts), loaded on their first call: a server start never parses the
// CSV reader and writer. In the bundle, build.mjs defines __MCP_TRACKER_IO_BUNDLE__ as
// dist/mcp-tracker-io.mjs, the commands' companion, whose entry (lib/import-export.ts) re-exports
// what the tools use; from source, the room itself. The seam's pattern: lib/companion-bundle.ts.
import { importCompanion, onFirstUse } from '../companion-bundle.js';

export type ExchangeText = Pick<
  typeof import('./exchange/index.js'),
  'describeImport' | 'exportText' | 'formatOf' | 'importText' | 'IMPORT_LIMITS' | 'readUserMap'
>;

declare const __MCP_TRACKER_IO_BUNDLE__: string | undefined;

export const loadExchangeText = onFirstUse(async (): Promise<ExchangeText> => {
  const specifier =
    typeof __MCP_TRACKER_IO_BUNDLE__ === 'string'
      ? new URL(__MCP_TRACKER_IO_BUNDLE__, import.meta.url).href
      : './exchange/index.js';
  return importCompanion<ExchangeText>(() => import(specifier), specifier, 'import_issues and export_issues');
});

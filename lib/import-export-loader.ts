// Loading `mcp-tracker import` and `export` only for those commands. In the bundle, build.mjs
// defines __MCP_TRACKER_IO_BUNDLE__ as the file name of the separate bundle beside it
// (dist/mcp-tracker-io.mjs, with the CSV reader and writer), so a server start does not parse
// them. From source, the module is imported directly. The same arrangement as the demo's
// (lib/demo/demo-loader.ts) and the PostgreSQL backend's (lib/store/store-loader.ts).
import { importCompanion } from './companion-bundle.js';

type ImportExportModule = typeof import('./import-export.js');

declare const __MCP_TRACKER_IO_BUNDLE__: string | undefined;

export async function loadImportExport(): Promise<ImportExportModule> {
  const specifier =
    typeof __MCP_TRACKER_IO_BUNDLE__ === 'string'
      ? new URL(__MCP_TRACKER_IO_BUNDLE__, import.meta.url).href
      : './import-export.js';
  return importCompanion<ImportExportModule>(() => import(specifier), specifier, 'mcp-tracker import/export');
}

// Import and export: the public face of this folder, for the `mcp-tracker import` and `export`
// commands (lib/import-export.ts, the dist/mcp-tracker-io.mjs bundle), which the server never
// loads. A Jira CSV export read and written (jira-csv.ts, csv.ts), its rows brought in through
// the store's import commands (import-csv.ts, its report in import-report.ts), a JSON export read back (snapshot-import.ts), and
// what a dry run rehearses on: a store over an in-memory backend.
export { importJiraCsv } from './import-csv.js';
export { formatReport } from './import-report.js';
export { readUserMap } from './jira-mapping.js';
export { IMPORT_LIMITS, readJiraCsv, writeJiraCsv } from './jira-csv.js';
export { importSnapshot } from './snapshot-import.js';
export { parseSnapshot } from '../model/snapshot-format.js';
export { openMemoryBackend } from '../backend/memory-backend.js';
export { storeOn } from '../store.js';
export {
  describeImport,
  exportText,
  formatOf,
  formatSnapshotImport,
  importSnapshotText,
  importText,
  type ExchangeFormat,
  type TextImport,
} from './exchange-text.js';

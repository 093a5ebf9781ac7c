// The marker an import leaves beside its data file while it writes (`DATA.import-pending`,
// lib/import-export.ts): there after the import ended means it did not end well (killed, the
// machine stopped). The next import says so; so does the next start of the server, which would
// otherwise serve a half-imported file without a word (issue 30 item 7).

import { readFileSync } from 'node:fs';

export const importPendingPath = (dataFile: string): string => `${dataFile}.import-pending`;

/** What to tell the user when an import into `dataFile` did not finish; undefined when none is pending. */
export function pendingImportNotice(dataFile: string): string | undefined {
  const marker = importPendingPath(dataFile);
  let written: string;
  try {
    written = readFileSync(marker, 'utf8').trim();
  } catch {
    return undefined; // no marker (or none we can read): nothing to say
  }
  return (
    `an import into ${dataFile} did not finish${written ? ` (${written})` : ''}: its marker is ${marker}. ` +
    `The issues it wrote are served as they are. Run the same import again (mcp-tracker import FILE --data ${dataFile}) ` +
    "to end with exactly the file's issues: the rows already written are recognised by key, not written twice, and the marker goes when it ends."
  );
}

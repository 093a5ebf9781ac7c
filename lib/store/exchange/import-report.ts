// What `mcp-tracker import FILE.csv` reports (import-csv.ts makes it), and the report as the
// command prints it.

export interface ImportReport {
  readonly dryRun: boolean;
  readonly rows: number;
  /** Each imported row with the key it had in the file (null: none), the key it has now, and its comments. */
  readonly imported: readonly {
    readonly row: number;
    readonly from: string | null;
    readonly key: string;
    readonly comments: number;
  }[];
  readonly refused: readonly RowRefusal[];
  /**
   * Rows whose key names an issue already in the store (an earlier run of the import, perhaps
   * interrupted, issue 30): that issue is brought to the row, never written twice, with what
   * changed (none: the row was already so). Running an import again thus ends with exactly the
   * file's issues.
   */
  readonly alreadyPresent: readonly { readonly row: number; readonly key: string; readonly changes: readonly string[] }[];
  readonly projectsCreated: readonly string[];
  /** Projects given a workflow of the file's statuses (import-workflow.ts), each as a sentence saying which. */
  readonly workflowsSet: readonly string[];
  readonly sprintsCreated: readonly string[];
  readonly parentsLinked: number;
  /** Issue links made (blocks, relates to, duplicates): a link given at both ends counts once. */
  readonly issuesLinked: number;
  readonly ignoredColumns: readonly string[];
  /** Parents and links not made, each with its row and why: the row itself was imported. */
  readonly linksLeftOut: readonly string[];
  /** People, statuses, types, priorities and resolutions the file names otherwise than we do, and what they became. */
  readonly mapped: readonly string[];
}

export interface RowRefusal {
  readonly row: number;
  readonly line: number;
  readonly key: string | null;
  readonly reason: string;
}

/** The report as the command prints it (on stderr: only export writes data to stdout). */
export function formatReport(report: ImportReport, source: string, target: string, seconds: number): string {
  const lines = [
    `${report.dryRun ? 'dry run: ' : ''}import of ${source} into ${target}${report.dryRun ? ' (nothing was written)' : ''}`,
    `${report.rows} rows read: ${report.imported.length} ${report.dryRun ? 'would be ' : ''}imported, ${report.refused.length} refused, in ${seconds.toFixed(2)} s`,
  ];
  const updated = report.alreadyPresent.filter((entry) => entry.changes.length > 0);
  if (report.alreadyPresent.length > 0) {
    lines.push(
      `${report.alreadyPresent.length} rows name issues the store has (by key): ${updated.length} ${report.dryRun ? 'would be ' : ''}updated, the others unchanged`,
    );
  }
  for (const entry of updated.slice(0, 50)) lines.push(`  row ${entry.row}, ${entry.key}: ${entry.changes.join('; ')}`);
  if (updated.length > 50) lines.push(`  ... and ${updated.length - 50} more`);
  if (report.projectsCreated.length > 0) lines.push(`projects created: ${report.projectsCreated.join(', ')}`);
  for (const workflow of report.workflowsSet) lines.push(`workflow: ${workflow}`);
  if (report.sprintsCreated.length > 0) lines.push(`sprints created: ${report.sprintsCreated.join(', ')}`);
  if (report.parentsLinked > 0) lines.push(`parent epics linked: ${report.parentsLinked}`);
  if (report.issuesLinked > 0) lines.push(`issue links made: ${report.issuesLinked}`);
  const comments = report.imported.reduce((sum, entry) => sum + entry.comments, 0);
  if (comments > 0)
    lines.push(`comments: ${comments}, on ${report.imported.filter((entry) => entry.comments > 0).length} issues`);
  const moved = report.imported.filter((entry) => entry.from !== null && entry.from.toUpperCase() !== entry.key);
  const fresh = report.imported.filter((entry) => entry.from === null).length;
  lines.push(
    moved.length === 0
      ? 'keys: every key in the file was kept'
      : `keys: ${moved.length} renumbered (the project had used those numbers):`,
  );
  for (const entry of moved.slice(0, 50)) lines.push(`  row ${entry.row}: ${entry.from} -> ${entry.key}`);
  if (moved.length > 50) lines.push(`  ... and ${moved.length - 50} more`);
  if (fresh > 0) lines.push(`${fresh} rows without an Issue key got their project's next keys`);
  if (report.mapped.length > 0)
    lines.push('mapped (the file named them otherwise):', ...report.mapped.map((line) => `  ${line}`));
  if (report.linksLeftOut.length > 0) {
    lines.push(`parents and links left out (their rows were imported): ${report.linksLeftOut.length}`);
    lines.push(...report.linksLeftOut.slice(0, 50).map((line) => `  ${line}`));
  }
  if (report.ignoredColumns.length > 0) lines.push(`columns not read: ${report.ignoredColumns.join(', ')}`);
  for (const refusal of report.refused) {
    lines.push(`refused: row ${refusal.row} (line ${refusal.line}${refusal.key ? `, ${refusal.key}` : ''}): ${refusal.reason}`);
  }
  return lines.join('\n');
}

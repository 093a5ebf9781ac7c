// import_issues and export_issues, as a client calls them (issue 33): offered only with the
// opt-in projects toolset; a dry run answers what would be imported, updated and refused and
// writes nothing; the real run then does exactly that; a new project gets a workflow of the
// file's statuses; the same text again changes nothing; a JSON export goes only into an empty
// store; an unreadable file and an export past the tool's bound are refused with what to do.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeCsv } from '../store/exchange/csv.js';
import { EXPORT_TOOL_MAX_BYTES } from '../tracker/tools-exchange.js';
import { type Json, type TrackerSession, trackerSession } from './tracker-session.js';

const call = async (tracker: TrackerSession, name: string, args: Json) =>
  (await tracker.ask('tools/call', { name, arguments: args })).result as Json;

const HEADER = ['Issue key', 'Summary', 'Issue Type', 'Status', 'Status Category', 'Resolution', 'Reporter'];
const MIGRATION = writeCsv([
  HEADER,
  ['PAY-1', 'Refund API', 'Story', 'Code Review', 'In Progress', '', 'Zoë Ångström'],
  ['PAY-2', 'Old invoice path', 'Spike', "Won't Do", 'Done', "Won't Do", 'alice'],
  ['PAY-3', 'Card vault', 'Task', 'To Do', 'To Do', '', 'alice'],
  ['PAY-4', 'Unplaceable', 'Task', 'Limbo', '', '', 'alice'],
  ['PAY-5', 'Refunds shipped', 'Story', 'Done', 'Done', 'Done', 'alice'],
  ['PROJ-101', 'Renamed by the import', 'Bug', 'To Do', 'To Do', '', 'alice'],
]);

test('import_issues and export_issues are offered only with the projects toolset', async () => {
  for (const [selection, offered] of [
    [{}, false],
    [{ toolsets: ['issues', 'projects'] as const }, true],
  ] as const) {
    const tracker = await trackerSession({ tools: selection });
    try {
      const names = ((await tracker.ask('tools/list')).result!.tools as Json[]).map((tool) => tool.name);
      assert.is(names.includes('import_issues'), offered);
      assert.is(names.includes('export_issues'), offered);
    } finally {
      tracker.close();
    }
  }
});

test('a dry run says what would be imported, updated and refused, and writes nothing; the real run does exactly that; again changes nothing', async () => {
  const tracker = await trackerSession({ tools: { toolsets: ['issues', 'projects'] } });
  try {
    const before = (await call(tracker, 'get_issue', { key: 'PROJ-101' })).structuredContent.issue;
    const dry = await call(tracker, 'import_issues', { text: MIGRATION, dry_run: true });
    assert.is(dry.isError, undefined, JSON.stringify(dry));
    const { report, ...counts } = dry.structuredContent;
    assert.equal(counts, { format: 'csv', dry_run: true, imported: 4, updated: 1, unchanged: 0, refused: 1 });
    assert.match(report, 'dry run: import of the text into');
    assert.match(report, '6 rows read: 4 would be imported, 1 refused');
    assert.match(
      report,
      "workflow: PAY's own workflow, from the file's statuses: To Do (to do), Code Review (in progress), Done (done), Won't Do (done);",
    );
    assert.match(report, "refused: row 5 (line 5, PAY-4): Unknown status 'Limbo'.");
    assert.match(report, 'Zoë Ångström → zoe.angstrom (display name)');
    // Nothing written: no PAY, PROJ-101 as it was.
    const pay = await call(tracker, 'get_issue', { key: 'PAY-1' });
    assert.is(pay.isError, true, 'PAY-1 does not exist after a dry run');
    assert.equal((await call(tracker, 'get_issue', { key: 'PROJ-101' })).structuredContent.issue, before);

    const real = await call(tracker, 'import_issues', { text: MIGRATION });
    assert.equal(
      { ...real.structuredContent, report: undefined },
      { ...dry.structuredContent, dry_run: false, report: undefined },
    );
    const refund = (await call(tracker, 'get_issue', { key: 'PAY-1' })).structuredContent.issue;
    assert.equal([refund.status, refund.reporter], ['code_review', 'zoe.angstrom']);
    assert.is((await call(tracker, 'get_issue', { key: 'PROJ-101' })).structuredContent.issue.title, 'Renamed by the import');
    const again = await call(tracker, 'import_issues', { text: MIGRATION });
    const { report: _report, ...againCounts } = again.structuredContent;
    assert.equal(againCounts, { format: 'csv', dry_run: false, imported: 0, updated: 0, unchanged: 5, refused: 1 });

    // A duplicate closed from To Do in one call, along the workflow the import made.
    const closed = await call(tracker, 'update_issue', { key: 'PAY-3', status: 'Done', resolution: 'Duplicate' });
    assert.is(closed.isError, undefined, JSON.stringify(closed));
    const pay3 = (await call(tracker, 'get_issue', { key: 'PAY-3' })).structuredContent.issue;
    assert.equal([pay3.status, pay3.resolution], ['done', 'duplicate']);
  } finally {
    tracker.close();
  }
});

test('export_issues answers CSV and JSON; a JSON export goes only into an empty store; unreadable text is refused', async () => {
  const tracker = await trackerSession({ tools: { toolsets: ['issues', 'projects'] } });
  try {
    const csv = (await call(tracker, 'export_issues', {})).structuredContent;
    assert.equal([csv.format, csv.issues, csv.projects], ['csv', 17, 2]);
    assert.ok(csv.text.startsWith('Issue key,Summary,Issue Type,Status,Priority,'));
    const json = (await call(tracker, 'export_issues', { format: 'json' })).structuredContent;
    assert.equal(JSON.parse(json.text).issues.length, 17);
    // Read back, a CSV export of the store changes nothing; a JSON one is refused here (the store is not empty).
    const same = (await call(tracker, 'import_issues', { text: csv.text, dry_run: true })).structuredContent;
    assert.equal([same.imported, same.updated, same.unchanged, same.refused], [0, 0, 17, 0]);
    const refused = await call(tracker, 'import_issues', { text: json.text, dry_run: true });
    assert.is(refused.isError, true);
    assert.match(refused.content[0].text, 'A JSON export goes into an empty store;');
    const unreadable = await call(tracker, 'import_issues', { text: 'Summary\n"never closed' });
    assert.is(unreadable.isError, true);
    assert.match(unreadable.content[0].text, 'a quoted field is never closed');
  } finally {
    tracker.close();
  }
});

test(`an export past ${EXPORT_TOOL_MAX_BYTES} bytes is refused, naming the command that writes it to a file`, async () => {
  const tracker = await trackerSession({ tools: { toolsets: ['issues', 'projects'] } });
  try {
    const long = 'x'.repeat(9_000);
    const rows = Array.from({ length: 120 }, (_, n) => [`BIG-${n + 1}`, `Issue ${n + 1}`, 'Task', 'To Do', 'alice', long]);
    const imported = await call(tracker, 'import_issues', {
      text: writeCsv([['Issue key', 'Summary', 'Issue Type', 'Status', 'Reporter', 'Description'], ...rows]),
    });
    assert.is(imported.structuredContent.imported, 120, JSON.stringify(imported));
    const refused = await call(tracker, 'export_issues', {});
    assert.is(refused.isError, true);
    assert.match(
      refused.content[0].text,
      `over the ${EXPORT_TOOL_MAX_BYTES} a tool answers with; run mcp-tracker export --format csv --out FILE instead.`,
    );
  } finally {
    tracker.close();
  }
});

test.run();

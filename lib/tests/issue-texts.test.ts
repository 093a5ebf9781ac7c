// jira://issue/{key}'s text (lib/tracker/issue-texts.ts): printed once per version of the issue
// and kept as UTF-8 bytes; a large one printed a slice at a time, a ping answered between the
// slices (issue 30). Ordering, not timing: the ping is sent one turn of the event loop after the
// read, and must be answered before it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeLineBytes } from '../../protocol/json-rpc.js';
import { PreEncoded } from '../../protocol/pre-encoded.js';
import { transcript } from '../../protocol/tests/harness.js';
import { type ChangeEvent, openStore, silentLogger } from '../store/index.js';
import { createIssueTexts } from '../tracker/issue-texts.js';
import { createResourceWatch } from '../tracker/resource-watch.js';
import { createTrackerServer } from '../tracker/server.js';

/** Characters JSON escapes, a line separator, and a pair of surrogates, in every comment. */
const TRICKY = 'a "quote", a \\ backslash,\na line, \u2028 a separator, \u{1F600} an emoji, ';

/** A tracker on fresh demo data whose PROJ-101 has `count` comments of 10,000 characters. */
async function trackerWithLargeIssue(count: number) {
  const dir = mkdtempSync(join(tmpdir(), 'issue-texts-'));
  const store = await openStore({ path: join(dir, 'tracker.jsonl'), log: silentLogger, watch: false });
  for (let i = 0; i < count; i++) await store.addComment('PROJ-101', { body: `${i} ${TRICKY}`.padEnd(10_000, 'x') });
  return { store, close: () => (store.close(), rmSync(dir, { recursive: true, force: true })) };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

test('a large issue read while it is printed in slices: a ping sent a turn later is answered first, and the text is JSON.stringify of the issue', async () => {
  const { store, close } = await trackerWithLargeIssue(60); // 600,000 characters: a few slices
  const t = transcript(createTrackerServer(store).definition);
  await t.initialize();
  t.client({ jsonrpc: '2.0', id: 'read', method: 'resources/read', params: { uri: 'jira://issue/PROJ-101' } });
  await turn();
  t.client({ jsonrpc: '2.0', id: 'ping', method: 'ping' });
  const answers = (await t.until((out) => out.some((message) => message.id === 'read'))) as any[];
  assert.equal(
    answers.map((message) => message.id),
    ['ping', 'read'],
  );
  assert.is(answers[1].result.contents[0].text, JSON.stringify({ issue: store.getIssue('PROJ-101') }));
  close();
});

test('one printing per version of an issue, however many read it meanwhile; its bytes are written as they are, never copied', async () => {
  const { store, close } = await trackerWithLargeIssue(20);
  const texts = createIssueTexts(store);
  const issue = store.getIssue('PROJ-101');
  const first = texts.soon(issue);
  const second = texts.soon(issue);
  assert.ok(first instanceof Promise, 'a large issue not kept is printed in slices');
  const text = await first;
  assert.is(await second, text, 'the second read waited for the same printing');
  assert.is(texts.now(issue), text, 'and it is kept');
  assert.is(text.json, JSON.stringify(JSON.stringify({ issue })).replace(/\u2028/g, '\\u2028'));

  const line = encodeLineBytes({ jsonrpc: '2.0', id: 1, result: { contents: [{ uri: 'jira://issue/PROJ-101', text }] } });
  for (const chunk of text.utf8 ?? []) assert.ok(line.includes(chunk), 'each chunk of the text is a chunk of the line');
  assert.equal(JSON.parse(Buffer.concat(line).toString('utf8')).result.contents[0].text, JSON.stringify({ issue }));

  await store.addComment('PROJ-101', { body: 'one more' });
  const changed = store.getIssue('PROJ-101');
  assert.is.not(await texts.soon(changed), text, 'a new version, a new text');
  close();
});

test('a watched large issue is fingerprinted a few chunks a turn: a change that comes before that is done is judged right', async () => {
  const { store, close } = await trackerWithLargeIssue(60); // three chunks of 256 Ki characters
  const watch = createResourceWatch(store);
  const uri = 'jira://issue/PROJ-101';
  const naming = (issues: string[]): ChangeEvent => ({
    source: 'local',
    changes: [],
    issues,
    sprints: [],
    projects: [],
    issueSetChanged: false,
  });
  watch.watch(uri);
  // No turn has passed since: the fingerprint is unfinished when these changes come.
  assert.equal(watch.changedBy(naming(['PROJ-101'])), [], 'a change naming the issue that left its text as it was');
  watch.forget(uri);
  watch.watch(uri);
  await store.addComment('PROJ-101', { body: 'one more' });
  assert.equal(watch.changedBy(naming(['PROJ-101'])), [{ uri, viewer: undefined }]);
  assert.equal(watch.changedBy(naming(['PROJ-101'])), [], 'told once per change');
  close();
});

test('a text given in pieces is the text joined, a surrogate pair split between two pieces included', () => {
  const builder = PreEncoded.stringBuilder();
  for (const piece of ['a "b"\n', '\u{1F600}'.slice(0, 1), '\u{1F600}'.slice(1), ' \u2028 ', 'c']) builder.add(piece);
  const built = builder.finish();
  const joined = 'a "b"\n\u{1F600} \u2028 c';
  assert.is(built.json, PreEncoded.ofString(joined).json);
  assert.is(built.json, PreEncoded.ofStringAsBytes(joined).json);
  assert.is(JSON.parse(built.json), joined);
});

test.run();

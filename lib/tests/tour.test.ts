// `mcp-tracker demo --tour` against the bundled server: every message that crossed the wire is
// shown, in order, as the wire had it; what the narration concludes agrees with the messages;
// every file and function it names exists.
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { WireEvent } from '../demo/stdio-client.js';
import { CHAPTERS } from '../demo/tour-chapters.js';
import { parsed } from '../demo/tour-steps.js';
import { type TourRun, runTour } from '../demo/tour.js';
import { TOUR_SHORTENING, formatMessage, shorten } from '../demo/wire-format.js';
import { defines } from '../../spec-tests/test-support/source-names.js';
import { parseCommandLine } from '../cli.js';

async function tour(chapter?: string): Promise<{ run: TourRun; printed: string[] }> {
  const printed: string[] = [];
  const run = await runTour({
    chapter,
    serverScript: 'dist/mcp-tracker.mjs',
    print: (line) => printed.push(...line.split('\n')),
  });
  return { run, printed };
}

let whole: { run: TourRun; printed: string[] };

test.before(async () => {
  whole = await tour();
});

test('the whole tour runs every chapter and ends cleanly', () => {
  assert.is(whole.run.exitCode, 0, whole.printed.join('\n'));
  assert.equal(
    [...new Set(whole.run.steps.map((step) => step.chapter))],
    CHAPTERS.map((chapter) => chapter.name),
  );
});

test('nothing is hidden: every line on the wire belongs to one step, in the order it crossed', () => {
  assert.equal(
    whole.run.steps.flatMap((step) => step.events),
    whole.run.wire,
  );
});

test("nothing is made up: each message is printed as formatMessage shows the wire's line, in order", () => {
  let cursor = 0;
  for (const event of whole.run.wire) {
    const [first = '', ...rest] = formatMessage(event.line);
    const arrow = event.direction === 'sent' ? '  client → ' : '  server ← ';
    const at = whole.printed.indexOf(arrow + first, cursor);
    assert.ok(at >= cursor, `not printed in order: ${event.line.slice(0, 120)}`);
    assert.equal(
      whole.printed.slice(at + 1, at + 1 + rest.length),
      rest.map((line) => ' '.repeat(arrow.length) + line),
    );
    cursor = at + 1 + rest.length;
  }
});

/** `protocol/peer.ts: cancel()` in the narration, and bare paths. */
function citations(text: string): { file: string; name?: string }[] {
  const named = [...text.matchAll(/((?:protocol|lib)\/[\w/-]+\.ts): ([#\w]+)\(\)/g)].map((m) => ({ file: m[1]!, name: m[2]! }));
  const bare = [...text.matchAll(/((?:protocol|lib)\/[\w/-]+\.ts)/g)].map((m) => ({ file: m[1]! }));
  return [...named, ...bare];
}

test('every file and function the narration names exists', () => {
  const text = whole.printed.filter((line) => !line.startsWith('  client') && !line.startsWith('  server')).join('\n');
  const found = citations(text);
  assert.ok(found.filter((c) => c.name).length >= 20, `only ${found.length} citations`);
  const missing = found.filter(
    ({ file, name }) => !existsSync(file) || (name !== undefined && !defines(readFileSync(file, 'utf8'), name)),
  );
  assert.equal(missing, []);
});

const stepOf = (chapter: string, index: number) => whole.run.steps.filter((step) => step.chapter === chapter)[index]!;
const position = (events: WireEvent[], test: (m: Record<string, unknown>) => boolean) =>
  events.findIndex((event) => event.direction === 'received' && test(parsed(event)));

test('the narration of the subscription says the order the notification and the result really came in', () => {
  const step = stepOf('subscriptions', 1);
  const notice = position(step.events, (m) => m.method === 'notifications/resources/updated');
  const result = position(step.events, (m) => 'result' in m);
  assert.ok(notice >= 0 && result >= 0);
  assert.match(step.concluded.join(' '), notice < result ? 'BEFORE' : 'AFTER');
});

test('the narration of the cancel counts the progress shown before it and says whether a response came', () => {
  const step = stepOf('progress', 1);
  const call = parsed(step.events[0]!);
  const cancel = step.events.findIndex(
    (event) => event.direction === 'sent' && parsed(event).method === 'notifications/cancelled',
  );
  const before = step.events.slice(0, cancel).filter((event) => parsed(event).method === 'notifications/progress').length;
  assert.ok(before >= 1, 'the cancel is sent after the first progress');
  assert.match(step.concluded[0]!, `${before} progress notification(s) arrived before the cancel left`);
  const answered = step.events.some((event) => event.direction === 'received' && parsed(event).id === call.id);
  assert.match(step.concluded[1]!, answered ? 'already on its way' : 'No response');
});

test('the handshake chapter proposes no revision it does not negotiate', () => {
  const proposed = stepOf('handshake', 2)
    .events.map(parsed)
    .find((message) => message.method === 'initialize')?.params as { protocolVersion?: string } | undefined;
  assert.is(proposed?.protocolVersion, '2025-11-25');
  assert.match(stepOf('handshake', 2).concluded.join(' '), /-32600/);
});

test('the errors chapter shows the codes the server sent', () => {
  const codes = whole.run.steps
    .filter((step) => step.chapter === 'errors')
    .flatMap((step) => step.events.map(parsed))
    .map((message) => (message.error as { code?: number } | undefined)?.code)
    .filter((code) => code !== undefined);
  assert.equal(codes, [-32700, -32601, -32602]);
});

test('the 2026-07-28 chapter completes an MRTR round trip', () => {
  const [, first, retry] = whole.run.steps.filter((step) => step.chapter === 'era2026');
  const result = (step: typeof first) => step!.events.map(parsed).find((m) => 'result' in m)?.result as Record<string, unknown>;
  assert.is(result(first).resultType, 'input_required');
  assert.is(result(retry).resultType, 'complete');
  assert.is(result(retry).isError, undefined);
});

test('--tour CHAPTER runs one chapter, opening the session first; an unknown one is refused', async () => {
  const one = await tour('errors');
  assert.is(one.run.exitCode, 0);
  assert.equal([...new Set(one.run.steps.map((step) => step.chapter))], ['errors']);
  assert.is(parsed(one.run.wire[0]!).method, 'initialize');
  const unknown = await tour('nowhere');
  assert.is(unknown.run.exitCode, 2);
  assert.match(unknown.printed.join('\n'), 'handshake, listing');
});

test('formatMessage: short messages on one line, long ones broken and shortened with what was left out', () => {
  assert.equal(formatMessage('{"jsonrpc":"2.0","id":1,"result":{}}'), ['{"jsonrpc":"2.0","id":1,"result":{}}']);
  assert.equal(formatMessage('not json'), ['not json']);
  const long = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(500), items: [1, 2, 3, 4, 5, 6] } });
  const lines = formatMessage(long);
  assert.ok(lines.length > 1);
  assert.ok(
    lines.every((line) => line.length <= TOUR_SHORTENING.width + 2 * TOUR_SHORTENING.depth),
    lines.join('\n'),
  );
  assert.match(lines.join('\n'), '…(+428 chars)');
  assert.match(lines.join('\n'), '… 3 more');
  assert.equal(shorten({ a: { b: {} } }, { ...TOUR_SHORTENING, depth: 1 }), { a: '{… 1 key}' });
});

test('the command line: --tour, --tour CHAPTER, --tour=CHAPTER; an option after --tour is not a chapter', () => {
  assert.equal(parseCommandLine(['demo', '--tour']).tour, {});
  assert.equal(parseCommandLine(['demo', '--tour', 'errors']).tour, { chapter: 'errors' });
  assert.equal(parseCommandLine(['demo', '--tour=era2026']).tour, { chapter: 'era2026' });
  const line = parseCommandLine(['demo', '--tour', '--trace']);
  assert.equal([line.tour, line.trace], [{}, true]);
  assert.is(parseCommandLine(['demo']).tour, undefined);
});

test.run();

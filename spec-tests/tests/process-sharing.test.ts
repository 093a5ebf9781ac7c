// Fixtures share a server process where they can (process-sharing.ts, process-pool.ts): fewer
// starts, one session per handshake, ids renamed so none is reused in a session, and a fixture
// that fails on a shared process is played again on a fresh one, so the verdict is the one a
// process of its own gives.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCommand } from '../runner/run-command.js';
import { parseFixture } from '../runner/fixture-parser.js';
import { asWrittenIds, processNeed } from '../runner/process-sharing.js';
import { findFixtureFiles } from '../runner/fixture-files.js';
import { initializeRequest } from '../runner/handshake.js';
import { scratchDir, tinyServer } from '../test-support/tiny-servers.js';
import { runArguments } from '../test-support/run-arguments.js';

interface JsonReport {
  fixtures: { name: string; verdict: string; failures: { summary: string }[] }[];
}

let folders = 0;
/** Writes `count` copies of a fixture into a folder of their own; returns the folder. */
function fixtureFolder(text: string, count: number): string {
  folders += 1;
  const folder = join(scratchDir, `sharing-${folders}`);
  mkdirSync(folder, { recursive: true });
  for (let index = 1; index <= count; index++) writeFileSync(join(folder, `f${index}.txtar`), text);
  return folder;
}

async function runJson(server: string, folder: string, jobs = 1): Promise<JsonReport> {
  let text = '';
  await runCommand(runArguments({ server, timeoutMs: 3000, startupTimeoutMs: 10_000, jobs, paths: [folder] }), {
    write: (chunk) => (text += chunk),
    isTerminal: false,
    env: {},
  });
  return JSON.parse(text) as JsonReport;
}

const TWO_PINGS = `Two pings.
protocol: any

-- client --
{"jsonrpc":"2.0","id":1,"method":"ping"}
{"jsonrpc":"2.0","id":"a","method":"ping"}
-- server --
{"jsonrpc":"2.0","id":1,"result":{}}
{"jsonrpc":"2.0","id":"a","result":{}}
`;

/** Counts its starts in a file, and refuses a request id it has seen before, as a strict server may (counted too). */
function countingStrictServer(name: string): { command: string; starts: () => number; reused: () => number } {
  const counter = join(scratchDir, `${name}.starts`);
  const reuses = join(scratchDir, `${name}.reused`);
  writeFileSync(counter, '');
  writeFileSync(reuses, '');
  const command = tinyServer(name, {
    atStart: `require("node:fs").appendFileSync(${JSON.stringify(counter)}, "x"); const usedIds = new Set();`,
    onMessage: `if ("id" in msg && "method" in msg) { const key = JSON.stringify(msg.id); if (usedIds.has(key)) { require("node:fs").appendFileSync(${JSON.stringify(reuses)}, "x"); return send({ jsonrpc: "2.0", id: msg.id, error: { code: -32600, message: "request id reused in this session" } }); } usedIds.add(key); }`,
  });
  return { command, starts: () => readFileSync(counter, 'utf8').length, reused: () => readFileSync(reuses, 'utf8').length };
}

test('fixtures share a session, each with request ids of its own on the wire', async () => {
  const server = countingStrictServer('strict-ids');
  const report = await runJson(server.command, fixtureFolder(TWO_PINGS, 6));
  assert.equal(
    report.fixtures.map((fixture) => fixture.verdict),
    ['passed', 'passed', 'passed', 'passed', 'passed', 'passed'],
    JSON.stringify(report.fixtures.map((fixture) => fixture.failures)),
  );
  // Five detection probes, one of them (initialize 2025-11-25) kept for the fixtures: nothing
  // failed, so nothing was played again and no other process was started.
  assert.is(server.starts(), 5);
});

test('a fixture that needs a fresh process gets one', async () => {
  const server = countingStrictServer('fresh-each');
  await runJson(server.command, fixtureFolder(TWO_PINGS.replace('protocol: any', 'protocol: any\nprocess: fresh: test'), 3));
  assert.is(server.starts(), 5 + 3);
});

const CALL_THEN_PING = `A tool call, then a ping.
protocol: any

-- client --
{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count","arguments":{}}}
-- server --
{"jsonrpc":"2.0","id":1,"result":{"content":[]}}
-- client --
{"jsonrpc":"2.0","id":2,"method":"ping"}
-- server --
{"jsonrpc":"2.0","id":2,"result":{}}
`;

test('a fixture failing on a process an earlier fixture changed is played again on a fresh one: the verdict is the fresh one', async () => {
  // Breaks after its second tool call: the third fixture on a shared process fails, alone it passes.
  const counter = join(scratchDir, 'tired.starts');
  writeFileSync(counter, '');
  const tired = tinyServer('tired', {
    atStart: `require("node:fs").appendFileSync(${JSON.stringify(counter)}, "x"); let calls = 0;`,
    onMessage: `if (msg.method === "tools/call") { calls += 1; return send({ jsonrpc: "2.0", id: msg.id, result: { content: [] } }); } if (msg.method === "ping" && !String(msg.id).startsWith("mcp-conform:") && calls > 2) return send({ jsonrpc: "2.0", id: msg.id, error: { code: -32603, message: "tired" } });`,
  });
  const report = await runJson(tired, fixtureFolder(CALL_THEN_PING, 3));
  assert.equal(
    report.fixtures.map((fixture) => fixture.verdict),
    ['passed', 'passed', 'passed'],
  );
  assert.is(readFileSync(counter, 'utf8').length, 5 + 1, 'the third fixture was played again on a fresh process');
});

test('a fixture failing on a process nothing has changed has its verdict: no fresh process', async () => {
  // Only pings went before (server-effects.ts): the turn saw what a fresh process would show.
  const counter = join(scratchDir, 'broken-ping.starts');
  writeFileSync(counter, '');
  const broken = tinyServer('broken-ping', {
    atStart: `require("node:fs").appendFileSync(${JSON.stringify(counter)}, "x");`,
    onMessage: `if (msg.method === "ping" && typeof msg.id === "string" && !msg.id.startsWith("mcp-conform:")) return send({ jsonrpc: "2.0", id: msg.id, error: { code: -32603, message: "no" } });`,
  });
  const failing = await runJson(broken, fixtureFolder(TWO_PINGS, 3));
  assert.equal(
    failing.fixtures.map((fixture) => fixture.verdict),
    ['failed', 'failed', 'failed'],
  );
  assert.is(readFileSync(counter, 'utf8').length, 5, 'the three fixtures took turns on the kept probe process');
});

test('a fixture failing on the first turn of a new process is not played a third time', async () => {
  const counter = join(scratchDir, 'exiting.starts');
  writeFileSync(counter, '');
  // Exits on a ping with a string id: the fixture fails, and its turn does not end clean.
  const broken = tinyServer('exiting', {
    atStart: `require("node:fs").appendFileSync(${JSON.stringify(counter)}, "x");`,
    onMessage: `if (msg.method === "ping" && typeof msg.id === "string" && !msg.id.startsWith("mcp-conform:")) process.exit(3);`,
  });
  const failing = await runJson(broken, fixtureFolder(TWO_PINGS, 3));
  assert.equal(
    failing.fixtures.map((fixture) => fixture.verdict),
    ['failed', 'failed', 'failed'],
  );
  // Five probes (one kept for the first turn of the first fixture, on which it fails), then one
  // new process per fixture, on which each fails on its first turn: that verdict is final.
  assert.is(readFileSync(counter, 'utf8').length, 5 + 3);
});

const RAW_PING = `A ping in raw bytes, split mid-line.
protocol: any

-- client raw --
{"jsonrpc":"2.0","id":1,
"method":"ping"}\\n
-- server --
{"jsonrpc":"2.0","id":1,"result":{}}
`;

const ONE_PING = TWO_PINGS.replace('{"jsonrpc":"2.0","id":"a","method":"ping"}\n', '').replace(
  '{"jsonrpc":"2.0","id":"a","result":{}}\n',
  '',
);

test('a request dropped (the fence after it answered) leaves the process to serve on', async () => {
  const counter = join(scratchDir, 'drops-strings.starts');
  writeFileSync(counter, '');
  const drops = tinyServer('drops-strings', {
    atStart: `require("node:fs").appendFileSync(${JSON.stringify(counter)}, "x");`,
    onMessage: `if (msg.method === "ping" && typeof msg.id === "string" && !msg.id.startsWith("mcp-conform:")) return;`,
  });
  const folder = fixtureFolder(TWO_PINGS, 1);
  writeFileSync(join(folder, 'g-one-ping.txtar'), ONE_PING);
  const report = await runJson(drops, folder);
  assert.equal(
    report.fixtures.map((fixture) => fixture.verdict),
    ['failed', 'passed'],
  );
  // The first fixture fails on the kept probe process, where only pings went before: that is its
  // verdict, and the process serves on for the second fixture. Nothing else is started.
  assert.is(readFileSync(counter, 'utf8').length, 5);
});

test('an answer that comes after the fence fails the next turn, which is played again: it never decides its verdict', async () => {
  // Holds back the answer to "late" until the next request with a numeric id: the second fixture
  // fails (as it would alone), and the answer reaches the third fixture's turn, which it must not decide.
  const late = tinyServer('late-answer', {
    atStart: 'let held;',
    onMessage: `if (String(msg.id).startsWith("late")) { held = msg.id; return; } if (held !== undefined && msg.method === "ping" && typeof msg.id === "number") { send({ jsonrpc: "2.0", id: held, result: {} }); held = undefined; }`,
  });
  const folder = fixtureFolder(TWO_PINGS, 1);
  writeFileSync(join(folder, 'f2.txtar'), TWO_PINGS.replaceAll('"a"', '"late"'));
  writeFileSync(join(folder, 'f3.txtar'), TWO_PINGS);
  const report = await runJson(late, folder, 1);
  assert.equal(
    report.fixtures.map((fixture) => fixture.verdict),
    ['passed', 'failed', 'passed'],
    JSON.stringify(report.fixtures.map((fixture) => fixture.failures)),
  );
});

test('fixtures whose ids cannot be renamed share a process where none of their ids was used', async () => {
  const server = countingStrictServer('strict-raw');
  const folder = fixtureFolder(RAW_PING, 3);
  writeFileSync(join(folder, 'pings.txtar'), TWO_PINGS);
  const report = await runJson(server.command, folder);
  assert.equal(
    report.fixtures.map((fixture) => fixture.verdict),
    ['passed', 'passed', 'passed', 'passed'],
    JSON.stringify(report.fixtures.map((fixture) => fixture.failures)),
  );
  // id 1 as written: the kept probe process takes the first raw fixture, each other one needs a
  // process that has not seen id 1 (a new one), and the ping fixture continues a session renamed.
  assert.is(server.reused(), 0, 'no request id was sent twice to one process');
  assert.is(server.starts(), 5 + 2);
});

const INITIALIZE_AS_PROBED = `The initialize the 2025-06-18 probe sends, then initialized and a ping.
protocol: none

-- client --
{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcp-conform","version":"0.1.0"}}}
-- server --
{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":"<<object>>","serverInfo":{"name":"<<string>>","version":"<<string>>"}}}
-- client --
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"ping"}
-- server --
{"jsonrpc":"2.0","id":2,"result":{}}
`;

test("a fixture that opens with a probe's initialize continues the probe's process: the probe's answer is its answer", async () => {
  const counter = join(scratchDir, 'once.starts');
  const again = join(scratchDir, 'once.again');
  writeFileSync(counter, '');
  writeFileSync(again, '');
  // Refuses a second initialize, as a server may: the fixture's must not reach the probe's process again.
  const once = tinyServer('initialize-once', {
    atStart: `require("node:fs").appendFileSync(${JSON.stringify(counter)}, "x"); let initialized = false;`,
    onMessage: `if (msg.method === "initialize") { if (initialized) { require("node:fs").appendFileSync(${JSON.stringify(again)}, "x"); return send({ jsonrpc: "2.0", id: msg.id, error: { code: -32600, message: "already initialized" } }); } initialized = true; }`,
  });
  const folder = fixtureFolder(INITIALIZE_AS_PROBED, 2);
  writeFileSync(join(folder, 'pings.txtar'), TWO_PINGS);
  const report = await runJson(once, folder);
  assert.equal(
    report.fixtures.map((fixture) => fixture.verdict),
    ['passed', 'passed', 'passed'],
    JSON.stringify(report.fixtures.map((fixture) => fixture.failures)),
  );
  assert.is(readFileSync(again, 'utf8').length, 0, 'no process was sent initialize twice');
  // Five probes: the 2025-06-18 one continued by the first copy, the 2025-11-25 one by the pings;
  // the second copy finds the probe taken and starts its own.
  assert.is(readFileSync(counter, 'utf8').length, 5 + 1);
});

test("a fixture repeating a probe's initialize never continues another revision's probe answered with the same version", async () => {
  // Answers every initialize with 2025-06-18, as a server that knows no newer revision does: the
  // 2025-11-25 probe's process is kept for protocol: any fixtures, its session opened by an
  // initialize that asked for 2025-11-25. This server refuses a ping in a session opened for
  // 2025-06-18, so the fixture fails on the right process (and again on a fresh one), and would
  // pass only on the 2025-11-25 probe's.
  const server = tinyServer('answers-2025-06-18', {
    atStart: 'let asked;',
    onMessage: `if (msg.method === "initialize") { asked = msg.params.protocolVersion; return send({ jsonrpc: "2.0", id: msg.id, result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "older", version: "1" } } }); } if (msg.method === "ping" && asked === "2025-06-18") return send({ jsonrpc: "2.0", id: msg.id, error: { code: -32603, message: "no ping in a 2025-06-18 session" } });`,
  });
  const folder = fixtureFolder(INITIALIZE_AS_PROBED, 1);
  writeFileSync(join(folder, 'pings.txtar'), TWO_PINGS);
  const report = await runJson(server, folder);
  assert.equal(
    report.fixtures.map((fixture) => `${fixture.name} ${fixture.verdict}`),
    ['f1 failed', 'pings passed'],
  );
});

test("a fixture that repeats a probe's initialize and ends its process leaves the probe's process to one that does not", async () => {
  const counter = join(scratchDir, 'probe-then-eof.starts');
  writeFileSync(counter, '');
  const server = tinyServer('probe-then-eof', { atStart: `require("node:fs").appendFileSync(${JSON.stringify(counter)}, "x");` });
  const folder = fixtureFolder(INITIALIZE_AS_PROBED, 1);
  // Named first: were it to take the probe's process, its turn (stdin closed) could not end
  // clean, it would be played again on a process of its own, and f1 would need one too.
  writeFileSync(join(folder, 'a-eof.txtar'), `${INITIALIZE_AS_PROBED}-- eof --\n-- exit --\ncode: 0\n`);
  const report = await runJson(server, folder);
  assert.equal(
    report.fixtures.map((fixture) => `${fixture.name} ${fixture.verdict}`),
    ['a-eof passed', 'f1 passed'],
    JSON.stringify(report.fixtures.map((fixture) => fixture.failures)),
  );
  assert.is(readFileSync(counter, 'utf8').length, 5 + 1, 'f1 continued the probe, the EOF fixture had a process of its own');
});

test("the initialize-VERSION fixtures spell out the probe's initialize, whatever the runner's version", () => {
  // The probe's clientInfo is fixed (handshake.ts): were it the runner's version, a new release
  // would quietly stop these four fixtures continuing their probe's process.
  assert.equal(initializeRequest('x', '2025-06-18').params, {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'mcp-conform', version: '0.1.0' },
  });
  const files = findFixtureFiles(['spec-tests/fixtures/tracker/capabilities']).filter((file) =>
    /\/initialize-\d{4}-\d\d-\d\d$/.test(file.name),
  );
  assert.is(files.length, 4);
  for (const file of files) {
    const need = processNeed(parseFixture(readFileSync(file.path, 'utf8'), file.path, file.name));
    assert.ok('continuesProbe' in need, `${file.name}: ${JSON.stringify(need)}`);
  }
});

const PING_BEFORE_INITIALIZE = `A ping before any initialize.
protocol: none

-- client --
{"jsonrpc":"2.0","id":7,"method":"ping"}
-- server --
{"jsonrpc":"2.0","id":7,"result":{}}
`;

test("a fixture that drives the lifecycle itself continues a legacy server's server/discover probe process", async () => {
  const server = countingStrictServer('after-discover');
  const report = await runJson(server.command, fixtureFolder(PING_BEFORE_INITIALIZE, 2));
  assert.equal(
    report.fixtures.map((fixture) => fixture.verdict),
    ['passed', 'passed'],
  );
  // The probe refused server/discover (-32601) and answered the ping after it: the first copy
  // continues that process, the second starts its own.
  assert.is(server.starts(), 5 + 1);
});

test("a fixture that drives the lifecycle and ends its process leaves the server/discover probe's process to one that does not", async () => {
  const server = countingStrictServer('discover-then-eof');
  const folder = fixtureFolder(PING_BEFORE_INITIALIZE, 1);
  writeFileSync(join(folder, 'a-eof.txtar'), `${PING_BEFORE_INITIALIZE}-- eof --\n-- exit --\ncode: 0\n`);
  const report = await runJson(server.command, folder);
  assert.equal(
    report.fixtures.map((fixture) => `${fixture.name} ${fixture.verdict}`),
    ['a-eof passed', 'f1 passed'],
    JSON.stringify(report.fixtures.map((fixture) => fixture.failures)),
  );
  assert.is(server.starts(), 5 + 1, 'f1 continued the server/discover probe, the EOF fixture had a process of its own');
});

test('a fixture failing on the server/discover probe process is played again on a process of its own', async () => {
  // Once it has refused a request it refuses the pings that follow: alone, the fixture passes.
  const counter = join(scratchDir, 'grudge.starts');
  writeFileSync(counter, '');
  const grudge = tinyServer('grudge', {
    atStart: `require("node:fs").appendFileSync(${JSON.stringify(counter)}, "x"); let refused = false;`,
    onMessage: `if (msg.method === "server/discover") { refused = true; return send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } }); } if (refused && msg.id === 7) return send({ jsonrpc: "2.0", id: msg.id, error: { code: -32600, message: "no" } });`,
  });
  const report = await runJson(grudge, fixtureFolder(PING_BEFORE_INITIALIZE, 1));
  assert.equal(
    report.fixtures.map((fixture) => fixture.verdict),
    ['passed'],
  );
  assert.is(readFileSync(counter, 'utf8').length, 5 + 1, 'the fixture was played again on a process of its own');
});

const PING_THEN_EOF = `A ping, then stdin closed: the server exits.
protocol: any

-- client --
{"jsonrpc":"2.0","id":1,"method":"ping"}
-- server --
{"jsonrpc":"2.0","id":1,"result":{}}
-- eof --
-- exit --
code: 0
within: 2000ms
`;

test('a fixture that closes stdin takes the last turn of a shared process, started last', async () => {
  const server = countingStrictServer('eof-last');
  const folder = fixtureFolder(TWO_PINGS, 2);
  // Named first, started last: the pings share the kept probe process, then the EOF fixture ends it.
  writeFileSync(join(folder, 'a-eof.txtar'), PING_THEN_EOF);
  const report = await runJson(server.command, folder);
  assert.equal(
    report.fixtures.map((fixture) => fixture.verdict),
    ['passed', 'passed', 'passed'],
    JSON.stringify(report.fixtures.map((fixture) => fixture.failures)),
  );
  assert.is(server.starts(), 5);
});

test('a last turn that fails on a process an earlier fixture changed is played on a process of its own', async () => {
  // After a tool call it no longer exits on EOF: the EOF fixture fails on the shared process, alone it passes.
  const counter = join(scratchDir, 'lingers.starts');
  writeFileSync(counter, '');
  const lingers = tinyServer('lingers-after-a-call', {
    atStart: `require("node:fs").appendFileSync(${JSON.stringify(counter)}, "x"); let calls = 0;`,
    onMessage: `if (msg.method === "tools/call") { calls += 1; return send({ jsonrpc: "2.0", id: msg.id, result: { content: [] } }); }`,
    onEnd: 'if (calls === 0) process.exit(0); setInterval(() => {}, 1000);',
  });
  const folder = fixtureFolder(CALL_THEN_PING, 1);
  writeFileSync(join(folder, 'a-eof.txtar'), PING_THEN_EOF);
  const report = await runJson(lingers, folder);
  assert.equal(
    report.fixtures.map((fixture) => fixture.verdict),
    ['passed', 'passed'],
    JSON.stringify(report.fixtures.map((fixture) => fixture.failures)),
  );
  assert.is(readFileSync(counter, 'utf8').length, 5 + 1, 'the EOF fixture was played again on a process of its own');
});

test('only the ids in raw bytes go out as written: a ping after them is renamed, so such fixtures share one process', async () => {
  const server = countingStrictServer('strict-raw-then-ping');
  const rawThenPing = (id: number) =>
    `A ping in raw bytes, then one as JSON.\nprotocol: any\n\n-- client raw --\n{"jsonrpc":"2.0","id":${id},"method":"ping"}\\n\n-- server --\n{"jsonrpc":"2.0","id":${id},"result":{}}\n${ONE_PING.slice(ONE_PING.indexOf('-- client --'))}`;
  const folder = fixtureFolder(rawThenPing(5), 1);
  writeFileSync(join(folder, 'f2.txtar'), rawThenPing(6));
  writeFileSync(join(folder, 'f3.txtar'), rawThenPing(7));
  const report = await runJson(server.command, folder);
  assert.equal(
    report.fixtures.map((fixture) => fixture.verdict),
    ['passed', 'passed', 'passed'],
    JSON.stringify(report.fixtures.map((fixture) => fixture.failures)),
  );
  assert.is(server.reused(), 0, 'no request id was sent twice to one process');
  assert.is(server.starts(), 5, 'the three took turns on the kept probe process');
});

test('which fixtures need a process of their own', () => {
  const need = (header: string, body: string) => processNeed(parseFixture(`${header}\n\n${body}`, 'x.txtar', 'x'));
  const ping = '-- client --\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n-- server --\n{"jsonrpc":"2.0","id":1,"result":{}}\n';
  assert.equal(need('protocol: any', ping), { shareKey: 'handshake 2025-11-25' });
  assert.equal(need('protocol: 2025-11-25', ping), { shareKey: 'handshake 2025-11-25' });
  assert.equal(need('protocol: 2025-03-26', ping), { shareKey: 'handshake 2025-03-26' });
  assert.equal(need('protocol: any\nprocess: fresh: it deletes the data', ping), { fresh: 'it deletes the data' });
  const fresh = (header: string, body: string) => 'fresh' in need(header, body);
  assert.ok(fresh('protocol: none', ping));
  // A process that saw only a refused server/discover and a ping may serve it (not raw bytes: they may test the stream's start).
  assert.equal(need('protocol: none', ping), {
    fresh: 'protocol: none (it drives the lifecycle itself)',
    beforeInitialize: true,
  });
  assert.equal(need('protocol: none', '-- client raw --\n{}\\n\n'), { fresh: 'protocol: none (it drives the lifecycle itself)' });
  // Not one that ends its process: its turn there could not end clean (process-sharing.ts, mayContinueProbe).
  assert.equal(need('protocol: none', `${ping}-- eof --\n`), { fresh: 'protocol: none (it drives the lifecycle itself)' });
  assert.equal(need('protocol: none', `${ping}-- exit --\n`), { fresh: 'protocol: none (it drives the lifecycle itself)' });
  assert.ok(fresh('protocol: any\nserver-args: --read-only', ping));
  assert.ok(fresh('protocol: any', '-- client raw --\n{}\n'));
  // Ending the process is the last turn of a shared one (run last, it ends a process the run would stop anyway).
  assert.equal(need('protocol: any', '-- eof --\n-- exit --\n'), { shareKey: 'handshake 2025-11-25', endsProcess: true });
  assert.equal(need('protocol: any', '-- client raw --\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n-- eof --\n'), {
    shareKey: 'handshake 2025-11-25',
    endsProcess: true,
    idsAsWritten: 'raw bytes cannot be given other ids',
  });
  assert.ok(fresh('protocol: any', '-- client raw --\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n'));
  // The initialize a probe sends (detect.ts), and nothing else, is a probe repeated.
  const initialize = (params: string) =>
    `-- client --\n{"jsonrpc":"2.0","id":1,"method":"initialize","params":${params}}\n-- server --\n{"jsonrpc":"2.0","id":1,"result":{}}\n`;
  const probeParams = '{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcp-conform","version":"0.1.0"}}';
  assert.equal(need('protocol: none', initialize(probeParams)), { continuesProbe: '2025-06-18', initializeId: 1 });
  assert.ok(fresh('protocol: none', `${initialize(probeParams)}-- eof --\n-- exit --\n`));
  assert.ok(fresh('protocol: none', initialize(probeParams.replace('{}', '{"roots":{}}'))));
  assert.ok(fresh('protocol: none', initialize(probeParams.replace('2025-06-18', '1999-01-01'))));
  assert.ok(fresh('protocol: none\nprocess: fresh: it counts its starts', initialize(probeParams)));
  assert.ok(fresh('protocol: none', initialize(probeParams).replace('"id":1,"method"', '"id":0,"method"')));
  assert.ok(fresh('protocol: any', '-- client --\n{"jsonrpc":"2.0","id":1000001,"method":"ping"}\n'));
  assert.ok(fresh('protocol: any', '-- client --\n{"jsonrpc":"2.0","id":"a#1","method":"ping"}\n'));
  // A batch refused whole is over when the fence at the turn's end is answered: any revision shares.
  assert.equal(need('protocol: any', '-- client --\n[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n'), {
    shareKey: 'handshake 2025-11-25',
  });
  assert.not.ok(fresh('protocol: any', '-- client --\n{"jsonrpc":"1.0","id":1,"method":"ping"}\n'));
  const asWritten = (body: string) => {
    const found = need('protocol: any', body);
    return 'shareKey' in found && found.idsAsWritten !== undefined;
  };
  assert.ok(asWritten('-- client raw --\n{}\\n\n'));
  assert.ok(asWritten('-- client --\n{"jsonrpc":"2.0","id":-1,"method":"ping"}\n'));
  assert.ok(asWritten('-- client --\n{"jsonrpc":"2.0","id":0,"method":"ping"}\n'));
  assert.ok(asWritten('-- client --\n{"jsonrpc":"2.0","id":"","method":"ping"}\n'));
  assert.ok(asWritten('-- client --\n{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}\n'));
  assert.ok(asWritten('-- client --\n{"jsonrpc":"2.0","id":7,"method":"ping"}\n{"jsonrpc":"2.0","id":"7","method":"ping"}\n'));
  assert.not.ok(asWritten(ping));
  // The same id twice is one id (reused-in-flight-id): renamed, both stay alike.
  assert.not.ok(asWritten('-- client --\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n'));
  const ids = (body: string) => asWrittenIds(parseFixture(`protocol: any\n\n${body}`, 'x.txtar', 'x'));
  assert.equal(
    ids(
      '-- client raw --\n{"jsonrpc":"2.0","id":5,"method":"ping"}\\n\n-- client --\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n',
    ),
    ['5'],
  );
  assert.equal(ids('-- client --\n{"jsonrpc":"2.0","id":null,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n'), [
    'null',
  ]);
  assert.equal(ids('-- client --\n{"jsonrpc":"2.0","id":7,"method":"ping"}\n{"jsonrpc":"2.0","id":"7","method":"ping"}\n'), [
    '7',
    '"7"',
  ]);
  assert.throws(() => need('protocol: any\nprocess: shared', ping), /process: expected "fresh: REASON"/);
});

test.run();

// The runner asks a server what it speaks before judging it: a revision the server does not
// offer is not applicable, silence after a fence is a dropped message (found at once, not after
// the timeout), the other reasonable answer at an open point passes, and a server that does not
// start is one clear error.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { runCommand } from '../runner/run-command.js';
import type { RunArguments } from '../runner/cli-args.js';
import { tinyServer } from '../test-support/tiny-servers.js';
import { runArguments } from '../test-support/run-arguments.js';
import { describeDetection } from '../runner/detection-text.js';
import type { Detection } from '../runner/detect.js';

interface JsonReport {
  fixtures: { name: string; verdict: string; skipReason?: string; failures: { summary: string }[] }[];
  run: { detection: { offeredHandshake: string[]; offeredStateless: string[]; discoverProblem?: string } };
}

async function runJson(server: string, extra: Partial<RunArguments> = {}): Promise<JsonReport> {
  let text = '';
  await runCommand(runArguments({ server, schema: true, timeoutMs: 3000, startupTimeoutMs: 10_000, jobs: 4, ...extra }), {
    write: (chunk) => (text += chunk),
    isTerminal: false,
    env: {},
  });
  return JSON.parse(text) as JsonReport;
}

// A correct modern-only server with nothing to offer: answers initialize the way the 2026-07-28
// versioning page recommends for a server that has no handshake (-32022 with the supported
// versions), checks each request's _meta (https://modelcontextprotocol.io/specification/2026-07-28/basic),
// and answers server/discover.
const MODERN_ONLY = tinyServer('modern-only', {
  onMessage: `
    if (msg.method === "initialize") return send({ jsonrpc: "2.0", id: msg.id, error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"], requested: msg.params.protocolVersion } } });
    const meta = (msg.params && msg.params._meta) || {};
    const version = meta["io.modelcontextprotocol/protocolVersion"];
    if (version !== "2026-07-28") return send({ jsonrpc: "2.0", id: msg.id, error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"], requested: version } } });
    if (!meta["io.modelcontextprotocol/clientCapabilities"]) return send({ jsonrpc: "2.0", id: msg.id, error: { code: -32602, message: "Missing _meta clientCapabilities" } });
    if (msg.method === "server/discover") return send({ jsonrpc: "2.0", id: msg.id, result: { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: {}, ttlMs: 0, cacheScope: "public", _meta: { "io.modelcontextprotocol/serverInfo": { name: "modern", version: "1" } } } });
    if (msg.method === "ping") return send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } });`,
});

test('a modern-only server: every handshake fixture is not applicable, with the reason', async () => {
  const report = await runJson(MODERN_ONLY);
  assert.equal(report.run.detection.offeredHandshake, []);
  assert.equal(report.run.detection.offeredStateless, ['2026-07-28']);
  const handshake = report.fixtures.filter((fixture) => !fixture.name.startsWith('generic/stateless/'));
  assert.ok(handshake.length > 40);
  for (const fixture of handshake) {
    assert.is(fixture.verdict, 'not-applicable', fixture.name);
    assert.match(fixture.skipReason ?? '', /offers no initialize handshake|does not offer/);
  }
  // It declares no capabilities: the stateless fixtures that require one are not applicable (checked
  // against its server/discover answer), the others pass: a correct modern-only server fails nothing.
  const stateless = report.fixtures.filter((fixture) => fixture.name.startsWith('generic/stateless/'));
  assert.equal(
    stateless.filter((fixture) => fixture.verdict === 'not-applicable').map((fixture) => fixture.skipReason),
    [
      'requires capabilities.resources.listChanged | capabilities.tools.listChanged | capabilities.prompts.listChanged, but server/discover has nothing (key absent) | nothing (key absent) | nothing (key absent) there',
      'requires capabilities.resources, but server/discover has nothing (key absent) there',
      'requires capabilities.tools, but server/discover has nothing (key absent) there',
    ],
  );
  assert.equal(
    stateless.filter((fixture) => fixture.verdict !== 'not-applicable').map((fixture) => `${fixture.name}: ${fixture.verdict}`),
    [
      'generic/stateless/m14-missing-client-capabilities: passed',
      'generic/stateless/m15-unsupported-version: passed',
      'generic/stateless/m16-server-discover: passed',
    ],
  );
  // 2026-07-28 puts serverInfo in server/discover's _meta; the report's header finds it there.
  const header = describeDetection({
    runnerVersion: '0',
    serverCommand: 'x',
    detectionMs: 0,
    detection: report.run.detection as Detection,
  });
  assert.match(header, /^server: +modern 1 /);
});

test('a legacy-only server: the 2026-07-28 fixtures are not applicable; server/discover answered -32601', async () => {
  const report = await runJson(tinyServer('legacy-only'), { filters: ['generic/stateless/', 'generic/ping/'] });
  assert.equal(report.run.detection.offeredStateless, []);
  for (const fixture of report.fixtures.filter((item) => item.name.startsWith('generic/stateless/'))) {
    assert.is(fixture.verdict, 'not-applicable', fixture.name);
    assert.match(fixture.skipReason ?? '', 'server/discover got error -32601');
  }
  assert.ok(report.fixtures.some((fixture) => fixture.name.startsWith('generic/ping/') && fixture.verdict === 'passed'));
});

// A legacy server that answers nothing before initialize, not even the ping fence: once its
// initialize probes are answered, server/discover is waited for a few seconds, not the startup
// timeout three times over (set far above here), and 2026-07-28 is not offered, saying why.
test('a server silent on everything before initialize: server/discover gets a short patience, and the reason is shown', async () => {
  const report = await runJson(
    tinyServer('silent-before-initialize', {
      onMessage: 'if (msg.method === "initialize") globalThis.initialized = true; else if (!globalThis.initialized) return;',
    }),
    { filters: ['generic/ping/'], startupTimeoutMs: 60_000 },
  );
  assert.equal(report.run.detection.offeredStateless, []);
  const waited = /^no answer within (\d+) ms$/.exec(report.run.detection.discoverProblem ?? '');
  assert.ok(waited && Number(waited[1]) < 30_000, `server/discover: ${report.run.detection.discoverProblem}`);
  assert.ok(report.fixtures.some((fixture) => fixture.name.startsWith('generic/ping/') && fixture.verdict === 'passed'));
});

// The tiny server answers nothing that is not JSON: j08 must fail as "dropped", found by the
// ping fence, not by waiting out the step timeout (which is set far above the fence here). j08
// is a jsonrpc-strict fixture: advisory unless the run fails on that level.
test('a dropped line is found by the fence, not by the timeout', async () => {
  const report = await runJson(tinyServer('drops-invalid', { onParseError: '/* dropped, as the official SDKs do */' }), {
    filters: ['generic/jsonrpc/j08-invalid-json'],
    timeoutMs: 60_000,
  });
  const [j08] = report.fixtures;
  assert.is(j08?.verdict, 'advisory');
  assert.match(j08?.failures[0]?.summary ?? '', 'the server answered a ping sent after it (the message was dropped)');
});

// Where the spec is open, the generic fixtures accept every reasonable answer: a server that takes
// the other one at each such point (test-support/other-choices-server.cjs) has no MUST failure.
test('a correct server that takes the other reasonable choice at every open point passes', async () => {
  const report = await runJson(`"${process.execPath}" spec-tests/test-support/other-choices-server.cjs`);
  const failed = report.fixtures.filter((fixture) => fixture.verdict === 'failed');
  assert.equal(
    failed.map((fixture) => `${fixture.name}: ${fixture.failures[0]?.summary ?? ''}`),
    [],
  );
  const advisory = report.fixtures.filter((fixture) => fixture.verdict === 'advisory').map((fixture) => fixture.name);
  assert.equal(advisory, ['generic/mcp/m10-tools-list-invalid-cursor'], 'it does not paginate: a SHOULD, advisory');
  assert.ok(report.fixtures.filter((fixture) => fixture.verdict === 'passed').length >= 35);
});

test('a server that does not start: one clear error, exit 2, with its stderr', () => {
  const run = spawnSync(
    process.execPath,
    ['dist/mcp-conform.mjs', 'run', '--server', `${process.execPath} -e "console.error('no config'); process.exit(1)"`],
    { encoding: 'utf8' },
  );
  assert.is(run.status, 2);
  assert.is(run.stdout, '');
  assert.match(run.stderr, /^mcp-conform: the server answered none of the probes/);
  assert.match(run.stderr, 'no config');
});

test.run();

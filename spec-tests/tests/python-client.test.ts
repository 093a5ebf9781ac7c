// Interoperability with the official Python SDK client (mcp 2.3.0), Client(mode="auto"): it
// probes with server/discover, waits 10 s for the answer, and otherwise falls back to
// initialize on the same pipe
// (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio, backward
// compatibility). A server that starts reading 11 s late therefore sees the probe and then
// initialize, and must serve both. Needs a Python that imports `mcp`, named by MCP_PYTHON
// (a venv after `pip install mcp==2.3.0`: MCP_PYTHON=.venv/bin/python npm test); without it
// the tests are skipped, visibly.
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const PYTHON = process.env.MCP_PYTHON;
const CLIENT_SCRIPT = 'spec-tests/interop/python_auto_client.py';
/** mcp 2.3.0's DISCOVER_TIMEOUT_SECONDS is 10: a server reading later than that answers the probe too late. */
const LATE_READ_MS = 11_000;
const RUN_TIMEOUT_MS = 60_000;
const SERVER = [process.execPath, 'dist/mcp-tracker.mjs', '--ephemeral'];

interface ClientSummary {
  ok: boolean;
  error?: string;
  protocolVersion?: string;
  tools?: string[];
  getIssueIsError?: boolean;
  getIssueKey?: string;
  resourceUri?: string;
}

if (PYTHON === undefined) console.log(`skip the Python SDK client tests: set MCP_PYTHON to a Python that imports mcp 2.3.0`);
const pythonTest = PYTHON === undefined ? test.skip : test;

/** Runs the client script against `server` and returns the one line of JSON it prints. */
function runClient(server: string[]): ClientSummary {
  const run = spawnSync(PYTHON ?? 'python3', [CLIENT_SCRIPT, ...server], { encoding: 'utf8', timeout: RUN_TIMEOUT_MS });
  const lastLine = run.stdout.trim().split('\n').pop() ?? '';
  assert.ok(lastLine.startsWith('{'), `no summary from ${CLIENT_SCRIPT} (status ${run.status}):\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(lastLine) as ClientSummary;
}

function assertUsedTheTracker(summary: ClientSummary): void {
  assert.ok(summary.ok, `the client failed: ${summary.error}`);
  assert.ok(summary.tools?.includes('get_issue'), JSON.stringify(summary.tools));
  assert.is(summary.getIssueIsError, false);
  assert.is(summary.getIssueKey, 'PROJ-101');
  assert.is(summary.resourceUri, 'jira://sprint/current');
}

pythonTest('Client(mode="auto") on a server that reads at once: the probe is answered, the 2026-07-28 era', () => {
  const summary = runClient(SERVER);
  assertUsedTheTracker(summary);
  assert.is(summary.protocolVersion, '2026-07-28');
});

pythonTest('Client(mode="auto") on a server that reads 11 s late: the probe times out, and initialize is still served', () => {
  const summary = runClient([process.execPath, 'spec-tests/test-support/late-stdin.mjs', String(LATE_READ_MS), ...SERVER]);
  assertUsedTheTracker(summary);
  assert.is.not(summary.protocolVersion, '2026-07-28', 'the probe was answered in time: this run did not reproduce the race');
});

test.run();

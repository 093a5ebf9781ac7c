// The fuzz loop. Sessions of the bundled server, each on its own data file; in each, rounds of
// cases are written in random chunks, followed by a ping, and after each round the invariants
// are checked:
//   - the process is up, and every stdout line is one valid JSON-RPC message (wire.ts);
//   - every request got exactly one response, no notification or response was answered
//     (oracle.ts: responses are counted per id, errors with id null per unreadable line);
//   - the journal only grew, and by exactly as many lines as acknowledged writes: a rejected
//     request changed nothing;
// and at the end of a session: the same probe requests get the same answers as at the start
// (a polluted Object.prototype would change how `{}` arguments validate), stdin EOF ends the
// process with exit 0 and a final newline, and the data file reopens without repair.
// A failing round is replayed case by case on fresh servers to find the one input to blame.

import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FuzzCase, IdSource, bigCases, everyWrongType, randomCase } from './generators.js';
import { type Expectation, type OracleOptions, emptyExpectation, expect, idKey, journalLinesAcknowledged } from './oracle.js';
import { type Rng, createRng } from './prng.js';
import { type WireServer, startServer } from './wire.js';
import { writeFixture } from './fixture.js';

export interface SessionConfig {
  readonly protocol: '2025-11-25' | '2025-06-18' | '2025-03-26';
  /** --max-message-bytes; undefined: the server's default (32 MiB). */
  readonly maxMessageBytes?: number;
  /** What node runs instead of the bundled server (self-tests use a fault-injecting wrapper). */
  readonly script?: readonly string[];
}

export interface FuzzOptions {
  readonly seed: number;
  /** Stop when this many cases were sent... */
  readonly maxCases?: number;
  /** ...or at this time (Date.now() value), whichever comes first. */
  readonly deadline?: number;
  /** Send every (method, field, wrong type) combination first. */
  readonly exhaustive?: boolean;
  /** 1: full-size big inputs (100k-deep nesting, 1 MB strings). */
  readonly bigScale?: number;
  readonly casesPerRound?: number;
  readonly roundsPerSession?: number;
  /** Where findings are written as fixtures; none if undefined. */
  readonly foundDir?: string;
  /** Stop after this many findings (each costs a replay on fresh servers); default 3. */
  readonly maxFindings?: number;
  /** Replay a failing round in halves to find the input to blame (default true). */
  readonly isolate?: boolean;
  /** How long a round waits for its answers before calling them missing; default 10 s. */
  readonly answerTimeoutMs?: number;
  readonly log?: (line: string) => void;
  /** Node arguments that start the server, default [dist/mcp-tracker.mjs]. */
  readonly script?: readonly string[];
}

export interface Finding {
  readonly problems: string[];
  readonly cases: FuzzCase[];
  readonly session: SessionConfig;
  /** True when a single case reproduced it on a fresh server. */
  readonly isolated: boolean;
  fixture?: string;
}

export interface FuzzReport {
  inputs: number;
  bytes: number;
  seconds: number;
  sessions: number;
  rounds: number;
  readonly byKind: Map<string, number>;
  readonly findings: Finding[];
}

const SESSIONS: readonly SessionConfig[] = [
  { protocol: '2025-11-25' },
  { protocol: '2025-03-26', maxMessageBytes: 256 * 1024 },
  { protocol: '2025-06-18', maxMessageBytes: 4 * 1024 * 1024 },
];

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const rng = createRng(options.seed);
  const report: FuzzReport = { inputs: 0, bytes: 0, seconds: 0, sessions: 0, rounds: 0, byKind: new Map(), findings: [] };
  const began = Date.now();
  const genOptions = { bigScale: options.bigScale ?? 1 };
  const exhaustive = options.exhaustive ? everyWrongType(new IdSource('w'), rng.fork(), genOptions) : undefined;
  let first = true;
  const more = (): boolean =>
    report.findings.length < (options.maxFindings ?? 3) &&
    (options.maxCases === undefined || report.inputs < options.maxCases) &&
    (options.deadline === undefined || Date.now() < options.deadline);

  while (more()) {
    const config = { ...(SESSIONS[report.sessions % SESSIONS.length] as SessionConfig), script: options.script };
    const ids = new IdSource(`s${report.sessions}-`);
    const nextCases = (): FuzzCase[] => {
      const cases: FuzzCase[] = [];
      if (first) cases.push(...bigCases(rng, ids, genOptions));
      first = false;
      for (let i = cases.length; i < (options.casesPerRound ?? 25); i++) {
        const next = exhaustive?.next();
        cases.push(next && !next.done ? next.value : randomCase(rng, ids, genOptions));
      }
      return cases;
    };
    await runSession(config, rng.fork(), nextCases, options, report, more);
    report.sessions += 1;
  }
  report.seconds = (Date.now() - began) / 1000;
  return report;
}

async function runSession(
  config: SessionConfig,
  rng: Rng,
  nextCases: () => FuzzCase[],
  options: FuzzOptions,
  report: FuzzReport,
  more: () => boolean,
): Promise<void> {
  const session = await openSession(config);
  try {
    for (let round = 0; round < (options.roundsPerSession ?? 40) && more(); round++) {
      const cases = nextCases();
      const problems = await runRound(session, cases, rng, options.answerTimeoutMs);
      report.rounds += 1;
      report.inputs += cases.length;
      for (const c of cases) {
        report.bytes += c.bytes.length;
        const kind = c.label.split(' ')[0] ?? '?';
        report.byKind.set(kind, (report.byKind.get(kind) ?? 0) + 1);
      }
      if (problems.length > 0) {
        await recordFinding(problems, cases, config, rng, options, report);
        return; // this server's state is suspect: start a new session
      }
    }
    const problems = await endSession(session);
    if (problems.length > 0) await recordFinding(problems, [], config, rng, options, report);
  } finally {
    session.server.kill();
    rmSync(session.directory, { recursive: true, force: true });
  }
}

// ---- a session ----------------------------------------------------------------------

export interface FuzzSession {
  readonly config: SessionConfig;
  readonly server: WireServer;
  readonly directory: string;
  readonly dataFile: string;
  readonly oracle: OracleOptions;
  /** Everything expected so far (cumulative, to catch late or duplicate answers). */
  readonly expected: Expectation;
  readonly baseline: string[];
  problemsSeen: number;
  sentinel: number;
}

const PROBES: [string, Record<string, unknown>][] = [
  ['tools/list', {}],
  ['prompts/list', {}],
  ['resources/templates/list', {}],
  ['tools/call', { name: 'create_issue', arguments: {} }],
  ['tools/call', { name: 'update_issue', arguments: {} }],
  ['tools/call', { name: 'get_issue', arguments: { key: 'constructor' } }],
  ['tools/call', { name: 'search_issues', arguments: { text: 'fuzzCanary polluted', limit: 1 } }],
  ['prompts/get', { name: 'triage_issue' }],
  ['resources/read', { uri: 'jira://issue/fuzzCanary' }],
  [
    'completion/complete',
    { ref: { type: 'ref/resource', uri: 'jira://project/{project_key}/stats' }, argument: { name: 'project_key', value: 'W' } },
  ],
  ['logging/setLevel', { level: 'polluted' }],
];

export async function openSession(config: SessionConfig): Promise<FuzzSession> {
  const directory = mkdtempSync(join(tmpdir(), 'mcp-fuzz-'));
  const dataFile = join(directory, 'tracker.jsonl');
  const args = ['--data', dataFile, ...(config.maxMessageBytes ? ['--max-message-bytes', String(config.maxMessageBytes)] : [])];
  const server = startServer(args, config.script);
  const oracle = { maxMessageBytes: config.maxMessageBytes ?? 32 * 1024 * 1024, batches: config.protocol === '2025-03-26' };
  const session: FuzzSession = {
    config,
    server,
    directory,
    dataFile,
    oracle,
    expected: emptyExpectation(),
    baseline: [],
    problemsSeen: 0,
    sentinel: 0,
  };
  try {
    const init = await call(session, 'initialize', {
      protocolVersion: config.protocol,
      capabilities: {},
      clientInfo: { name: 'fuzz', version: '1' },
    });
    if (!init.result) throw new Error(`initialize failed: ${JSON.stringify(init)}`);
    await session.server.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    session.baseline.push(...(await probe(session)));
  } catch (error) {
    server.kill();
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  return session;
}

let callCounter = 0;
/** One request of our own, outside the fuzz input; counted in the ledger like any other. */
export async function call(session: FuzzSession, method: string, params: unknown): Promise<Record<string, unknown>> {
  const id = `~call-${++callCounter}`;
  const key = idKey(id);
  session.expected.byId.set(key, 1);
  await session.server.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  await session.server.until(() => session.server.received.has(key), 10_000, `${method} (${id})`);
  return session.server.received.get(key)?.[0] as Record<string, unknown>;
}

async function probe(session: FuzzSession): Promise<string[]> {
  const answers: string[] = [];
  for (const [method, params] of PROBES) {
    const { result, error } = await call(session, method, params);
    answers.push(JSON.stringify({ method, params, result, error }));
  }
  return answers;
}

/** End of session: same probe answers, clean exit on EOF, and the data file reopens. */
async function endSession(session: FuzzSession): Promise<string[]> {
  const problems: string[] = [];
  const after = await probe(session).catch((error: Error) => [`probe failed: ${error.message}`]);
  after.forEach((answer, i) => {
    if (answer !== session.baseline[i])
      problems.push(
        `probe answer changed after fuzzing (prototype pollution?):\n  before ${session.baseline[i]}\n  after  ${answer}`,
      );
  });
  const exit = await session.server.close(5000);
  if (exit.code !== 0)
    problems.push(
      `stdin EOF: exit code ${exit.code} (signal ${exit.signal}), expected 0; stderr: ${session.server.stderr().slice(-1000)}`,
    );
  if (!exit.stdoutEndsWithNewline) problems.push('stdout does not end with a newline');
  problems.push(...session.server.streamProblems.slice(session.problemsSeen));
  problems.push(...(await reopenProblems(session)));
  return problems;
}

/** The data file opens in a fresh server with no repair (no torn tail moved aside). */
export async function reopenProblems(session: FuzzSession): Promise<string[]> {
  const problems: string[] = [];
  const server = startServer(['--data', session.dataFile], session.config.script);
  server.child.stdin.write(
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"r","version":"1"}}}\n',
  );
  server.child.stdin.write(
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_issue","arguments":{"key":"PROJ-101"}}}\n',
  );
  try {
    await server.until(() => server.received.has('2'), 10_000, 'get_issue after reopening');
    const answer = server.received.get('2')?.[0] as { result?: { isError?: boolean } };
    if (!answer.result || answer.result.isError) problems.push(`reopened store cannot read PROJ-101: ${JSON.stringify(answer)}`);
  } catch (error) {
    problems.push(`reopening the data file failed: ${(error as Error).message}; stderr: ${server.stderr().slice(-1000)}`);
  }
  await server.close(3000);
  const torn = readdirSync(session.directory).filter((f) => f.includes('.torn-'));
  if (torn.length > 0) problems.push(`half-written data moved aside on reopen: ${torn.join(', ')}`);
  return problems;
}

// ---- a round ------------------------------------------------------------------------

export async function runRound(
  session: FuzzSession,
  cases: readonly FuzzCase[],
  rng: Rng,
  answerTimeoutMs = 10_000,
): Promise<string[]> {
  const { server } = session;
  const bytes = Buffer.concat(cases.map((c) => c.bytes));
  const before = new Map(session.expected.byId);
  const answeredBefore = new Map([...session.server.received].map(([key, list]) => [key, list.length]));
  const round = expect(bytes, session.oracle);
  merge(session.expected, round);
  const journalBefore = readFileSync(session.dataFile);

  await writeInChunks(server, bytes, rng);
  const sentinel = `~sentinel-${++session.sentinel}`;
  session.expected.byId.set(idKey(sentinel), 1);
  await server.write(`{"jsonrpc":"2.0","id":"${sentinel}","method":"ping"}\n`);

  const problems: string[] = [];
  const timeoutMs = answerTimeoutMs + (bytes.length / 1e6) * 2000;
  await server
    .until(() => allArrived(session), timeoutMs, 'the answers of this round')
    .catch((error: Error) => {
      problems.push(
        `${error.message}; missing: ${missing(session).slice(0, 10).join(', ')}; stderr: ${server.stderr().slice(-1500)}`,
      );
    });
  problems.push(...overAnswered(session));
  problems.push(...server.streamProblems.slice(session.problemsSeen));
  session.problemsSeen = server.streamProblems.length;
  if (server.exit) problems.push(`the server exited: ${JSON.stringify(server.exit)}; stderr: ${server.stderr().slice(-1500)}`);
  problems.push(...journalProblems(session, round, before, answeredBefore, journalBefore));
  return problems;
}

function merge(into: Expectation, from: Expectation): void {
  for (const [key, n] of from.byId) into.byId.set(key, (into.byId.get(key) ?? 0) + n);
  into.nullErrors += from.nullErrors;
  into.arrays += from.arrays;
  for (const key of from.cancellable) into.cancellable.add(key);
  for (const [key, tool] of from.mutating) into.mutating.set(key, tool);
}

/** Random chunk boundaries: the server must not care where one read ends. */
async function writeInChunks(server: WireServer, bytes: Buffer, rng: Rng): Promise<void> {
  const cuts = Array.from({ length: rng.int(12) }, () => rng.int(bytes.length + 1)).sort((a, b) => a - b);
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (cut <= start) continue;
    await server.write(bytes.subarray(start, cut));
    start = cut;
    if (rng.chance(0.3)) await new Promise((resolve) => setImmediate(resolve));
  }
}

function allArrived(session: FuzzSession): boolean {
  const { expected, server } = session;
  if (server.counts.nullErrors < expected.nullErrors || server.counts.arrays < expected.arrays) return false;
  for (const [key, n] of expected.byId) {
    if (!expected.cancellable.has(key) && (server.received.get(key)?.length ?? 0) < n) return false;
  }
  return true;
}

function missing(session: FuzzSession): string[] {
  const { expected, server } = session;
  const out = [...expected.byId]
    .filter(([key, n]) => !expected.cancellable.has(key) && (server.received.get(key)?.length ?? 0) < n)
    .map(([key]) => `id ${key}`);
  if (server.counts.nullErrors < expected.nullErrors)
    out.push(`${expected.nullErrors - server.counts.nullErrors} error(s) with id null`);
  if (server.counts.arrays < expected.arrays) out.push(`${expected.arrays - server.counts.arrays} batch response(s)`);
  return out;
}

/** Answers nobody asked for: a second answer to one request, an answered notification. */
function overAnswered(session: FuzzSession): string[] {
  const { expected, server } = session;
  const problems: string[] = [];
  for (const [key, list] of server.received) {
    const allowed = expected.byId.get(key) ?? 0;
    if (list.length > allowed)
      problems.push(`${list.length} responses for id ${key}, expected ${allowed}: ${JSON.stringify(list).slice(0, 400)}`);
  }
  if (server.counts.nullErrors > expected.nullErrors)
    problems.push(
      `${server.counts.nullErrors - expected.nullErrors} unexpected error(s) with id null (an answered notification?)`,
    );
  if (server.counts.arrays > expected.arrays)
    problems.push(`${server.counts.arrays - expected.arrays} unexpected batch response(s)`);
  if (server.counts.serverRequests > 0)
    problems.push(`${server.counts.serverRequests} request(s) from the server, which this client never enabled`);
  return problems;
}

/** The journal only grows, and by exactly the lines acknowledged in this round. */
function journalProblems(
  session: FuzzSession,
  round: Expectation,
  before: Map<string, number>,
  answeredBefore: Map<string, number>,
  journalBefore: Buffer,
): string[] {
  const after = readFileSync(session.dataFile);
  if (!after.subarray(0, journalBefore.length).equals(journalBefore)) return ['the journal was rewritten, not appended to'];
  const added = countNewlines(after.subarray(journalBefore.length));
  let acknowledged = 0;
  let exact = true;
  for (const [key, tool] of round.mutating) {
    // An id shared with another request (mutations copy ids around): whose answer is whose?
    if ((session.expected.byId.get(key) ?? 0) > 1) {
      exact = false;
      continue;
    }
    // Only the answers that arrived during this round.
    const answers = (session.server.received.get(key) ?? []).slice(answeredBefore.get(key) ?? 0);
    // A reused id, a cancelled call or an answer without structuredContent: count what is certain.
    if ((before.get(key) ?? 0) > 0 || answers.length !== round.byId.get(key) || session.expected.cancellable.has(key))
      exact = false;
    for (const answer of answers) {
      const lines = journalLinesAcknowledged(tool, answer);
      if (lines === undefined) exact = false;
      else acknowledged += lines;
    }
  }
  // A cancelled write from an earlier round may still land now.
  for (const [key] of session.expected.mutating) {
    if (
      session.expected.cancellable.has(key) &&
      (session.server.received.get(key)?.length ?? 0) < (session.expected.byId.get(key) ?? 0)
    )
      exact = false;
  }
  if (exact && added !== acknowledged)
    return [
      `the journal grew by ${added} line(s) but ${acknowledged} write(s) were acknowledged: a rejected request changed the data`,
    ];
  if (!exact && added < acknowledged)
    return [`the journal grew by ${added} line(s) but at least ${acknowledged} write(s) were acknowledged`];
  return [];
}

const countNewlines = (bytes: Buffer): number => {
  let n = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1)) n++;
  return n;
};

// ---- findings -----------------------------------------------------------------------

async function recordFinding(
  problems: string[],
  cases: FuzzCase[],
  config: SessionConfig,
  rng: Rng,
  options: FuzzOptions,
  report: FuzzReport,
): Promise<void> {
  const culprit = options.isolate === false ? undefined : await isolate(cases, config, rng, options.answerTimeoutMs ?? 10_000);
  const finding: Finding = { problems, cases: culprit ?? cases, session: config, isolated: culprit !== undefined };
  options.log?.(
    `FOUND: ${problems[0]?.slice(0, 300)}\n  input: ${finding.cases
      .map((c) => c.label)
      .join(' | ')
      .slice(0, 500)}`,
  );
  if (options.foundDir && finding.cases.length > 0) {
    finding.fixture = writeFixture(options.foundDir, `seed-${options.seed}-${report.findings.length + 1}`, {
      title: `Fuzz finding (seed ${options.seed}): ${problems[0]?.split('\n')[0]?.slice(0, 200)}`,
      details: [
        ...finding.cases.map((c) => `input: ${c.label}`),
        ...problems.map((p) => `observed: ${p.slice(0, 500)}`),
        `server flags: ${config.maxMessageBytes ? `--max-message-bytes ${config.maxMessageBytes}` : '(defaults)'}`,
      ],
      protocol: config.protocol,
      bytes: Buffer.concat(finding.cases.map((c) => c.bytes)),
      oracle: { maxMessageBytes: config.maxMessageBytes ?? 32 * 1024 * 1024, batches: config.protocol === '2025-03-26' },
    });
  }
  report.findings.push(finding);
}

/** The smallest part of `cases` that still fails on a fresh server, found by halving. */
async function isolate(cases: FuzzCase[], config: SessionConfig, rng: Rng, timeoutMs: number): Promise<FuzzCase[] | undefined> {
  let suspects = cases;
  let reproduced = false;
  while (suspects.length > 1) {
    const half = Math.ceil(suspects.length / 2);
    const parts = [suspects.slice(0, half), suspects.slice(half)];
    let failing: FuzzCase[] | undefined;
    for (const part of parts) {
      if (await failsAlone(part, config, rng, timeoutMs)) {
        failing = part;
        break;
      }
    }
    if (!failing) break; // it takes cases from both halves together
    suspects = failing;
    reproduced = true;
  }
  return reproduced || (suspects.length === 1 && (await failsAlone(suspects, config, rng, timeoutMs))) ? suspects : undefined;
}

async function failsAlone(cases: FuzzCase[], config: SessionConfig, rng: Rng, timeoutMs: number): Promise<boolean> {
  const session = await openSession(config);
  try {
    return (await runRound(session, cases, rng, timeoutMs)).length > 0;
  } finally {
    session.server.kill();
    rmSync(session.directory, { recursive: true, force: true });
  }
}

// Parses the mcp-conform command line. Mistakes are reported as UsageError (exit code 2).
import { availableParallelism } from 'node:os';
import type { ReporterName } from './reporter.js';
import { REPORTER_NAMES } from './reporter.js';
import { LEVELS, type Level } from './fixture-types.js';

export const USAGE = `Usage:
  mcp-conform run --server "CMD ARGS" [options] [FIXTURE_FILES_OR_DIRS...]
  mcp-conform run --url URL [options] [FIXTURE_FILES_OR_DIRS...]
  mcp-conform list [FIXTURE_FILES_OR_DIRS...]
  mcp-conform record --out FILE [--redact FIELD]... -- CMD [ARGS...]
  mcp-conform --version

run options:
  --server CMD               command line that starts the stdio server (run through the shell)
  --url URL                  a running server's Streamable HTTP endpoint instead (stdio-only fixtures do not apply)
  --url-server-args ARGS     (with --url) the arguments that server was started with: only fixtures whose
                             server-args: header says the same apply (none given: only fixtures without one)
  --schema-dir DIR           validate against DIR/<negotiated version>/schema.json instead of the built-in schemas
  --no-schema                do not validate server messages against the official JSON Schemas
  --reporter text|json|junit|markdown  report format on stdout (default text)
  --filter SUBSTRING         only fixtures whose name contains SUBSTRING (repeat: any of them)
  --update                   rewrite the server sections of the fixtures from this run
  --expected-failures FILE   fixtures known to fail, one "name: reason" per line
  --timeout MS               how long each step waits for the server (default 5000)
  --startup-timeout MS       how long the server may take to answer its first probe (default 30000)
  --fail-on LEVELS           levels whose failures fail the run: must (default), should, jsonrpc-strict, all
  --jobs N                   fixtures run at the same time (default ${defaultJobs()})
  --verbose                  advisories (failures at levels the run does not fail on) in full, with stderr
Without FIXTURE_FILES_OR_DIRS the built-in generic fixtures are run (list prints them), and every
message the server sends is validated against the official JSON Schema of its revision (built in).

record options:
  --out FILE                 where the fixture is written when the server exits
  --redact FIELD             keep every value under a key named FIELD out of the fixture (repeatable)
NO_COLOR (non-empty) turns colours off.`;

export class UsageError extends Error {}

export interface RunArguments {
  command: 'run';
  /** The stdio server's command line; '' with --url. */
  server: string;
  /** The Streamable HTTP endpoint, with --url. */
  url?: string;
  /** With --url: the arguments that server was started with (a fixture's `server-args:` must match). */
  urlServerArgs?: string;
  /** false with --no-schema; otherwise messages are validated (built-in schemas unless schemaDir). */
  schema: boolean;
  schemaDir: string | undefined;
  reporter: ReporterName;
  /** Fixtures whose name contains any of these run; none given: all. */
  filters: string[];
  update: boolean;
  expectedFailures: string | undefined;
  timeoutMs: number;
  startupTimeoutMs: number;
  /** Failures at these levels fail the run; the others are advisory. */
  failOn: Level[];
  jobs: number;
  /** --verbose: advisories in full in the text report, not in five lines. */
  verbose?: boolean;
  paths: string[];
}

export interface RecordArguments {
  command: 'record';
  out: string;
  /** Keys whose values are kept out of the fixture. */
  redact: string[];
  serverArgv: string[];
}

export interface ListArguments {
  command: 'list';
  paths: string[];
}

export type Arguments = RunArguments | ListArguments | RecordArguments | { command: 'help' } | { command: 'version' };

export function parseArguments(argv: string[]): Arguments {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') return { command: 'help' };
  if (command === '--version') return { command: 'version' };
  if (command === 'run') return parseRun(rest);
  if (command === 'list') return parseList(rest);
  if (command === 'record') return parseRecord(rest);
  throw new UsageError(`unknown command "${command}"`);
}

function parseRun(argv: string[]): RunArguments {
  const result: RunArguments = {
    command: 'run',
    server: '',
    schema: true,
    schemaDir: undefined,
    reporter: 'text',
    filters: [],
    update: false,
    expectedFailures: undefined,
    timeoutMs: 5000,
    startupTimeoutMs: 30_000,
    failOn: ['must'],
    jobs: defaultJobs(),
    paths: [],
  };
  const options = new OptionReader(argv);
  for (let option = options.next(); option !== undefined; option = options.next()) {
    if (!option.startsWith('--')) result.paths.push(option);
    else if (option === '--update') result.update = true;
    else if (option === '--no-schema') result.schema = false;
    else if (option === '--verbose') result.verbose = true;
    else applyValueOption(result, option, options.value(option));
  }
  if ((result.server === '') === (result.url === undefined))
    throw new UsageError('run needs either --server "CMD ARGS" or --url URL');
  if (result.urlServerArgs !== undefined && result.url === undefined)
    throw new UsageError('--url-server-args goes with --url (with --server, a fixture adds its server-args itself)');
  if (!result.schema && result.schemaDir !== undefined)
    throw new UsageError('--no-schema and --schema-dir contradict each other');
  return result;
}

function parseList(argv: string[]): ListArguments {
  const option = argv.find((argument) => argument.startsWith('--'));
  if (option !== undefined) throw new UsageError(`unknown list option ${option}`);
  return { command: 'list', paths: argv };
}

function applyValueOption(result: RunArguments, option: string, value: string): void {
  if (option === '--server') result.server = value;
  else if (option === '--url') result.url = parseUrl(value);
  else if (option === '--url-server-args') result.urlServerArgs = value.trim();
  else if (option === '--schema-dir') result.schemaDir = value;
  else if (option === '--reporter') result.reporter = parseReporter(value);
  else if (option === '--filter') result.filters.push(value);
  else if (option === '--expected-failures') result.expectedFailures = value;
  else if (option === '--timeout') result.timeoutMs = parsePositive(option, value);
  else if (option === '--fail-on') result.failOn = parseLevels(value);
  else if (option === '--startup-timeout') result.startupTimeoutMs = parsePositive(option, value);
  else if (option === '--jobs') result.jobs = parsePositive(option, value);
  else throw new UsageError(`unknown option ${option}`);
}

function parseRecord(argv: string[]): RecordArguments {
  const separator = argv.indexOf('--');
  if (separator === -1 || separator === argv.length - 1) throw new UsageError('record needs -- CMD [ARGS...] after its options');
  const options = new OptionReader(argv.slice(0, separator));
  let out: string | undefined;
  const redact: string[] = [];
  for (let option = options.next(); option !== undefined; option = options.next()) {
    if (option === '--out') out = options.value(option);
    else if (option === '--redact') redact.push(options.value(option));
    else throw new UsageError(`unknown record option ${option}`);
  }
  if (out === undefined) throw new UsageError('record needs --out FILE');
  return { command: 'record', out, redact, serverArgv: argv.slice(separator + 1) };
}

/** Reads `--name value` and `--name=value` alike. */
class OptionReader {
  private index = 0;
  private inlineValue: string | undefined;

  constructor(private readonly argv: string[]) {}

  next(): string | undefined {
    this.inlineValue = undefined;
    const argument = this.argv[this.index];
    this.index += 1;
    if (argument === undefined) return undefined;
    const equals = argument.indexOf('=');
    if (!argument.startsWith('--') || equals === -1) return argument;
    this.inlineValue = argument.slice(equals + 1);
    return argument.slice(0, equals);
  }

  value(option: string): string {
    if (this.inlineValue !== undefined) {
      const value = this.inlineValue;
      this.inlineValue = undefined;
      return value;
    }
    const value = this.argv[this.index];
    this.index += 1;
    if (value === undefined) throw new UsageError(`${option} needs a value`);
    return value;
  }
}

function parseUrl(value: string): string {
  if (!/^https?:\/\//.test(value) || !URL.canParse(value))
    throw new UsageError(`--url needs an http:// or https:// URL, got "${value}"`);
  return value;
}

function parseReporter(value: string): ReporterName {
  const reporter = REPORTER_NAMES.find((name) => name === value);
  if (!reporter) throw new UsageError(`--reporter must be one of ${REPORTER_NAMES.join(', ')}`);
  return reporter;
}

function parseLevels(value: string): Level[] {
  if (value === 'all') return [...LEVELS];
  const levels = value.split(',').map((name) => LEVELS.find((level) => level === name.trim()));
  if (levels.some((level) => level === undefined))
    throw new UsageError(`--fail-on takes ${LEVELS.join(', ')} or all, got "${value}"`);
  return [...new Set(['must' as const, ...(levels as Level[])])];
}

function parsePositive(option: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) === 0)
    throw new UsageError(`${option} needs a positive whole number, got "${value}"`);
  return Number(value);
}

/**
 * Two fixtures per core: a fixture mostly waits (for a server to start, for the fence after a
 * silence and the grace after it), so one per core leaves the cores idle half the run.
 */
function defaultJobs(): number {
  return 2 * availableParallelism();
}

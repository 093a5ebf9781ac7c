// The command line of mcp-tracker. Errors here go to stderr with exit code 2: stdout belongs
// to the protocol even before the server starts.

import { checkedInstanceName } from '../protocol/http.js';
import { type ToolsetName, parseToolsets } from './tracker/toolsets.js';

export interface HttpAddress {
  host: string;
  port: number;
  /** The user named the host (anything but loopback then warrants a warning without a token). */
  explicitHost: boolean;
}

export interface CommandLine {
  command: 'serve' | 'demo' | 'help' | 'version' | 'migrate' | 'copy-journal' | 'import' | 'export' | 'workflow' | 'people';
  /** workflow: the project, the file of its new workflow (absent: print it), and --map FROM=TO pairs. */
  workflow?: { project: string; file?: string; mapping: Record<string, string> };
  /** people: list everyone, add a person, or give someone (by any name they have) a new display name. */
  people?: PeopleAction;
  data?: string;
  /** --store: a postgres:// URL (credentials inside: never printed). */
  store?: string;
  /** copy-journal: the journal file to copy. */
  journal?: string;
  /** import: the file to read. */
  importFile?: string;
  /** import --dry-run. */
  dryRun: boolean;
  /** import --user-map: a file of names and account ids to handles. */
  userMap?: string;
  /** export --format (default csv). */
  format?: 'csv' | 'json';
  /** export --out: else stdout. */
  out?: string;
  ephemeral: boolean;
  /** --user: a handle, checked by the store when it opens. */
  user?: string;
  /** --toolsets: the sets of tools offered (checked names). */
  toolsets?: ToolsetName[];
  /** --read-only: only tools that change nothing. */
  readOnly: boolean;
  pageSize?: number;
  maxMessageBytes?: number;
  maxInFlight?: number;
  maxQueuedBytes?: number;
  maxDepth?: number;
  /** Serve over HTTP on this address instead of stdio. */
  http?: HttpAddress;
  authTokenFile?: string;
  /** --users-file: per-user tokens (lib/tracker/users-file.ts). */
  usersFile?: string;
  allowedOrigins: string[];
  stateKeyFile?: string;
  /** --instance: the prefix of the session ids this instance issues (checked by the HTTP transport). */
  instanceName?: string;
  trace: boolean;
  /** demo --tour: the guided session; `chapter` names one chapter of it. */
  tour?: { chapter?: string };
}

export type PeopleAction =
  | { readonly action: 'list' }
  | { readonly action: 'add'; readonly handle: string; readonly name: string; email?: string; aliases: string[] }
  | { readonly action: 'rename'; readonly person: string; readonly name: string };

/** `people`, `people add HANDLE "Name"`, `people rename PERSON "New Name"`: the words after `people`. */
function peopleAction(args: string[]): PeopleAction {
  const word = args[0] !== undefined && !args[0].startsWith('--') ? args.shift() : undefined;
  if (word === undefined) return { action: 'list' };
  const [first, name] = [args.shift(), args.shift()];
  if (
    first === undefined ||
    name === undefined ||
    first.startsWith('--') ||
    name.startsWith('--') ||
    (word !== 'add' && word !== 'rename')
  )
    throw new Error('people takes nothing (list), add HANDLE "Display Name", or rename PERSON "New Name"');
  return word === 'add' ? { action: 'add', handle: first, name, aliases: [] } : { action: 'rename', person: first, name };
}

export function parseCommandLine(argv: readonly string[]): CommandLine {
  const line: CommandLine = {
    command: 'serve',
    ephemeral: false,
    readOnly: false,
    trace: false,
    allowedOrigins: [],
    dryRun: false,
  };
  const args = [...argv];
  if (args[0] === 'demo' || args[0] === 'serve' || args[0] === 'migrate')
    line.command = args.shift() as 'demo' | 'serve' | 'migrate';
  if (args[0] === 'copy-journal') {
    line.command = 'copy-journal';
    args.shift();
    line.journal = args.shift();
    if (line.journal === undefined || line.journal.startsWith('--'))
      throw new Error('copy-journal needs the journal file to copy');
  }
  if (args[0] === 'export') line.command = args.shift() as 'export';
  if (args[0] === 'import') {
    line.command = 'import';
    args.shift();
    line.importFile = args.shift();
    if (line.importFile === undefined || line.importFile.startsWith('--')) throw new Error('import needs the file to read');
  }
  if (args[0] === 'workflow') {
    line.command = 'workflow';
    args.shift();
    const project = args.shift();
    if (project === undefined || project.startsWith('--')) throw new Error('workflow needs the project key');
    const file = args[0] !== undefined && !args[0].startsWith('--') ? args.shift() : undefined;
    line.workflow = { project, ...(file === undefined ? {} : { file }), mapping: {} };
  }
  if (args[0] === 'people') {
    line.command = 'people';
    args.shift();
    line.people = peopleAction(args);
  }
  while (args.length > 0) {
    const [flag, inlineValue] = splitFlag(args.shift() ?? '');
    const value = (): string => {
      const next = inlineValue ?? args.shift();
      if (next === undefined || next === '') throw new Error(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '--data':
        line.data = value();
        break;
      case '--map': {
        const [from, to] = value().split('=');
        if (line.workflow?.file === undefined || !from || !to) throw new Error('--map FROM=TO goes with workflow PROJECT FILE');
        line.workflow.mapping[from] = to;
        break;
      }
      case '--store':
        line.store = value();
        break;
      case '--email':
      case '--alias': {
        if (line.people?.action !== 'add') throw new Error(`${flag} goes with people add HANDLE "Display Name"`);
        if (flag === '--email') line.people.email = value();
        else line.people.aliases.push(value());
        break;
      }
      case '--ephemeral':
        line.ephemeral = true;
        break;
      case '--user':
        line.user = value();
        break;
      case '--toolsets':
        line.toolsets = parseToolsets(value());
        break;
      case '--read-only':
        line.readOnly = true;
        break;
      case '--page-size':
        line.pageSize = positiveInteger(flag, value());
        break;
      case '--max-message-bytes':
        line.maxMessageBytes = positiveInteger(flag, value());
        break;
      case '--max-in-flight':
        line.maxInFlight = positiveInteger(flag, value());
        break;
      case '--max-queued-bytes':
        line.maxQueuedBytes = positiveInteger(flag, value());
        break;
      case '--max-depth':
        line.maxDepth = positiveInteger(flag, value());
        break;
      case '--http':
        line.http = hostAndPort(value());
        break;
      case '--auth-token-file':
        line.authTokenFile = value();
        break;
      case '--users-file':
        line.usersFile = value();
        break;
      case '--allow-origin':
        line.allowedOrigins.push(value());
        break;
      case '--state-key-file':
        line.stateKeyFile = value();
        break;
      case '--instance':
        line.instanceName = checkedInstanceName(value());
        break;
      case '--trace':
        line.trace = true;
        break;
      case '--dry-run':
        line.dryRun = true;
        break;
      case '--user-map':
        line.userMap = value();
        break;
      case '--format': {
        const format = value();
        if (format !== 'csv' && format !== 'json') throw new Error(`--format is csv or json, got ${format}`);
        line.format = format;
        break;
      }
      case '--out':
        line.out = value();
        break;
      case '--tour': {
        // The chapter is optional: a next argument that is not an option names it.
        const chapter = inlineValue ?? (args[0] !== undefined && !args[0].startsWith('-') ? args.shift() : undefined);
        line.tour = chapter === undefined ? {} : { chapter };
        break;
      }
      case '--help':
      case '-h':
        line.command = 'help';
        break;
      case '--version':
      case '-v':
        line.command = 'version';
        break;
      default:
        throw new Error(`unknown option ${flag}`);
    }
  }
  if (line.data !== undefined && line.ephemeral) throw new Error('--data and --ephemeral exclude each other');
  if (line.store !== undefined && (line.data !== undefined || line.ephemeral)) {
    throw new Error('--store excludes --data and --ephemeral: the data is in the database');
  }
  if (['import', 'export', 'workflow', 'people'].includes(line.command) && line.ephemeral) {
    throw new Error(`${line.command} works on --data PATH or --store URL, not on an --ephemeral file`);
  }
  if ((line.dryRun || line.userMap !== undefined) && line.command !== 'import') {
    throw new Error('--dry-run and --user-map go with import');
  }
  if ((line.out !== undefined || line.format !== undefined) && line.command !== 'export')
    throw new Error('--format and --out go with export');
  if (!line.http && (line.authTokenFile || line.usersFile || line.allowedOrigins.length > 0 || line.instanceName !== undefined)) {
    throw new Error('--auth-token-file, --users-file, --allow-origin and --instance go with --http');
  }
  if (line.authTokenFile && line.usersFile) throw new Error('--auth-token-file and --users-file exclude each other');
  return line;
}

function splitFlag(arg: string): [string, string | undefined] {
  const equals = arg.indexOf('=');
  return arg.startsWith('--') && equals !== -1 ? [arg.slice(0, equals), arg.slice(equals + 1)] : [arg, undefined];
}

function positiveInteger(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${flag} needs a positive integer, got ${text}`);
  return value;
}

/** `PORT`, `HOST:PORT` or `[IPv6]:PORT`; port 0 means any free port. */
function hostAndPort(text: string): HttpAddress {
  const colon = text.lastIndexOf(':');
  const hostPart = colon === -1 ? '' : text.slice(0, colon);
  const port = Number(colon === -1 ? text : text.slice(colon + 1));
  if (!Number.isSafeInteger(port) || port < 0 || port > 65535) throw new Error(`--http needs [HOST:]PORT, got ${text}`);
  const host = hostPart.startsWith('[') && hostPart.endsWith(']') ? hostPart.slice(1, -1) : hostPart;
  return { host: host || '127.0.0.1', port, explicitHost: host !== '' };
}

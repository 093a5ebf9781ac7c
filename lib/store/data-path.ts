// Where the data file lives: --data PATH, else $MCP_TRACKER_DATA, else the XDG
// data directory ($XDG_DATA_HOME/mcp-tracker/tracker.jsonl, where
// XDG_DATA_HOME defaults to ~/.local/share).
//
// The path comes from whoever starts the server, never from tool arguments.
//
// The path may be a symbolic link to the real file (on another drive, say). A link
// whose target does not exist is refused when the store opens, naming both paths:
// creating the file would replace the link with a new demo file, and the data would
// split in two when the target came back. We never create the file at the target
// either: a missing target more often means a drive that is not mounted than a
// file that was never made.
// Pure: argv, env, home and cwd are passed in, so it is trivial to test.
import path from 'node:path';

export type DataPathSource = 'flag' | 'env' | 'xdg';

export interface DataPathInputs {
  /** Command-line arguments after the script, e.g. process.argv.slice(2). */
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  /** os.homedir() */
  readonly home: string;
  /** process.cwd(), to make a relative --data or $MCP_TRACKER_DATA absolute. */
  readonly cwd: string;
}

export interface DataPath {
  readonly path: string;
  readonly source: DataPathSource;
}

export const DATA_FILE_NAME = 'tracker.jsonl';
export const DATA_ENV_VAR = 'MCP_TRACKER_DATA';

export function resolveDataPath(inputs: DataPathInputs): DataPath {
  const flag = dataFlag(inputs.argv);
  if (flag !== undefined) return { path: path.resolve(inputs.cwd, flag), source: 'flag' };
  const fromEnv = inputs.env[DATA_ENV_VAR];
  if (fromEnv !== undefined && fromEnv !== '') return { path: path.resolve(inputs.cwd, fromEnv), source: 'env' };
  return { path: path.join(xdgDataHome(inputs), 'mcp-tracker', DATA_FILE_NAME), source: 'xdg' };
}

/** `--data PATH` or `--data=PATH`; the last one wins, like most CLIs. */
function dataFlag(argv: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--data') {
      const value = argv[i + 1];
      if (value === undefined || value === '' || value.startsWith('--')) {
        throw new Error('--data needs a file path, e.g. --data ~/tracker.jsonl');
      }
      found = value;
      i += 1;
    } else if (arg !== undefined && arg.startsWith('--data=')) {
      found = arg.slice('--data='.length);
      if (found === '') throw new Error('--data= needs a file path, e.g. --data=/home/me/tracker.jsonl');
    }
  }
  return found;
}

/** The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored. */
function xdgDataHome(inputs: DataPathInputs): string {
  const configured = inputs.env['XDG_DATA_HOME'];
  if (configured !== undefined && path.isAbsolute(configured)) return configured;
  return path.join(inputs.home, '.local', 'share');
}

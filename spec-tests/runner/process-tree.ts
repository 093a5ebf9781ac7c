// Finding every process a server under test started, so that none outlives the run.
//
// Killing the server's process group is not enough: a child may leave the group (`setsid`, a
// daemon, an npm wrapper that starts its Go or Rust binary detached), and once its parent exits
// it is re-parented to init and no tree walk finds it. So each server is started with a mark in
// its environment, `MCP_CONFORM_SERVER=<run>-<n>`, which every descendant inherits whatever group
// or session it moves to, and which Linux shows in /proc/PID/environ. A process that clears its
// environment is still found while its parent lives, by walking the parent links in /proc.
// Where there is no /proc (macOS, Windows) the process group is all that is killed.
import { readdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

export const MARK_VARIABLE = 'MCP_CONFORM_SERVER';

/** One mark prefix per runner process: a sweep of this run never touches another run's servers. */
export const RUN_MARK = `${process.pid}-${randomBytes(4).toString('hex')}`;
let marksIssued = 0;

/** A mark for one server process and everything it starts. */
export function newServerMark(): string {
  marksIssued += 1;
  return `${RUN_MARK}-${marksIssued}`;
}

interface ProcessEntry {
  pid: number;
  parent: number;
  environ: string[] | undefined;
}

/**
 * The processes that belong to a server: those whose environment holds `mark` (or, with
 * `prefix`, a mark starting with it), those below `rootPid`, and everything below either.
 */
export function serverProcesses(selection: { mark: string; prefix?: boolean; rootPid?: number }): number[] {
  const entries = readProcessTable();
  const wanted = `${MARK_VARIABLE}=${selection.mark}`;
  const marked = (entry: ProcessEntry) =>
    entry.environ?.some((item) => (selection.prefix ? item.startsWith(wanted) : item === wanted)) ?? false;
  const found = new Set(entries.filter(marked).map((entry) => entry.pid));
  if (selection.rootPid !== undefined) found.add(selection.rootPid);
  // Parent links, repeated until nothing new: descendants of anything already found.
  for (let grown = true; grown;) {
    grown = false;
    for (const entry of entries) {
      if (found.has(entry.pid) || !found.has(entry.parent)) continue;
      found.add(entry.pid);
      grown = true;
    }
  }
  found.delete(process.pid);
  if (selection.rootPid !== undefined && !entries.some((entry) => entry.pid === selection.rootPid))
    found.delete(selection.rootPid);
  return [...found];
}

/** Sends `signal` to each pid; those already gone are skipped. */
export function signalEach(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone already, or never ours.
    }
  }
}

function readProcessTable(): ProcessEntry[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const entries: ProcessEntry[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const parent = parentOf(name);
    if (parent !== undefined) entries.push({ pid: Number(name), parent, environ: environOf(name) });
  }
  return entries;
}

/** /proc/PID/stat is `pid (comm) state ppid …`; comm may hold spaces and parentheses, so read after the last `)`. */
function parentOf(pid: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

function environOf(pid: string): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
  } catch {
    return undefined;
  }
}

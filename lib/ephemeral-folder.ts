// --ephemeral's folder: a fresh demo data file in a folder of its own in the temporary folder,
// removed when the server exits. A server that never gets to exit (SIGKILL, a crash, a power
// cut) leaves its folder behind, so each start also removes the folders of earlier ephemeral
// servers that are gone.
//
// Rules:
// - The folders are named `mcp-tracker-ephemeral-XXXXXX`, and each holds `server.json`, written
//   right after the folder is made: who serves from it, as pid, the process's start time, its
//   PID namespace, the boot, the machine and the host.
// - A folder is removed only when its server is provably gone: the server ran in our PID
//   namespace, on our boot and host, and its pid is gone or now names a process that started
//   at another time (a pid reused); or it ran on an earlier boot of this machine (a power cut:
//   no process outlives its boot), known by our host name and /etc/machine-id with another boot
//   id. A folder whose server cannot be judged from here (another namespace on our boot, another
//   machine, a file we may not read) is left: never a folder a live server uses.
//   Where Linux's /proc is missing (macOS, Windows) there is no start time: a live pid keeps its
//   folder, even if it is a reused one.
// - Only a folder that is ours is judged: a real directory (not a symlink), owned by our user and
//   closed to others (mode 0700, as mkdtemp makes it). In a shared /tmp anyone may make a folder
//   with our prefix and a server.json naming a dead pid: removing it recursively would follow
//   what they swap into it.
// - An empty folder is one whose server was killed between making it and writing server.json
//   (microseconds): removed (not recursively) once it has not changed for a minute. A folder
//   without server.json that holds anything is left: a live server's whose file was deleted.
// - The store's lock file in the folder says nothing here: it is held only while a write is
//   under way (lib/store/journal/lock.ts), not while a server lives.
// - Bounded work per start: at most FOLDERS_LOOKED_AT_PER_START folders judged, picked at random
//   among the ephemeral ones, so folders of live servers cannot hide the others from every start.
//   Listing the temporary folder is the one cost that grows with it.
import { lstatSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

export const EPHEMERAL_FOLDER_PREFIX = 'mcp-tracker-ephemeral-';
export const SERVER_FILE = 'server.json';
export const FOLDERS_LOOKED_AT_PER_START = 8;
/** A folder without its server.json is taken for a killed start's once unchanged for this long. */
const UNOWNED_QUIET_MS = 60_000;

/** Who serves from a folder: enough to tell whether that very process still runs. */
export interface ServerIdentity {
  readonly pid: number;
  /** Field 22 of /proc/PID/stat (clock ticks after boot): a pid reused by a later process has another. */
  readonly started: string | null;
  /** `readlink /proc/self/ns/pid`: a pid means something only inside its PID namespace... */
  readonly pid_ns: string | null;
  /** ...and its boot (/proc/sys/kernel/random/boot_id)... */
  readonly boot_id: string | null;
  /** ...of this machine (/etc/machine-id: the same on every boot, its own on each installation). */
  readonly machine_id: string | null;
  readonly host: string;
}

/** Removes the folders of ephemeral servers that are gone, then makes this server's folder; returns its path. */
export function makeEphemeralFolder(report: (line: string) => void): string {
  const parent = tmpdir();
  const removed = removeGoneEphemeralFolders(parent);
  if (removed.length > 0)
    report(`removed ${removed.length} folder(s) left by --ephemeral servers that are gone: ${removed.join(', ')}`);
  const folder = mkdtempSync(join(parent, EPHEMERAL_FOLDER_PREFIX));
  writeFileSync(join(folder, SERVER_FILE), JSON.stringify(identityOf(process.pid)));
  return folder;
}

/** Looks at up to `lookAtMost` ephemeral folders in `parent` and removes those whose server is gone; returns their names. */
export function removeGoneEphemeralFolders(parent: string, lookAtMost = FOLDERS_LOOKED_AT_PER_START): string[] {
  let names: string[];
  try {
    names = readdirSync(parent).filter((name) => name.startsWith(EPHEMERAL_FOLDER_PREFIX));
  } catch {
    return []; // housekeeping: a temporary folder we cannot list fails nothing
  }
  const us = identityOf(process.pid);
  const removed: string[] = [];
  for (const name of pickAtRandom(names, lookAtMost)) {
    const folder = join(parent, name);
    try {
      if (!isOurs(folder)) continue;
      const server = readServer(folder);
      if (server === null) {
        if (Date.now() - lstatSync(folder).mtimeMs <= UNOWNED_QUIET_MS) continue;
        rmdirSync(folder); // empty, else it throws and the folder stays
      } else if (isGone(server, us)) rmSync(folder, { recursive: true, force: true });
      else continue;
      removed.push(name);
    } catch {
      // Not ours to read or remove (another user's), or removed by another start meanwhile.
    }
  }
  return removed;
}

/** A real directory of our user's, closed to others; where there are no uids (Windows), the user's own temporary folder. */
function isOurs(folder: string): boolean {
  const stat = lstatSync(folder);
  if (!stat.isDirectory()) return false;
  return process.getuid === undefined || (stat.uid === process.getuid() && (stat.mode & 0o077) === 0);
}

function isGone(server: ServerIdentity, us: ServerIdentity): boolean {
  if (server.host !== us.host) return false;
  if (isEarlierBootOfOurs(server, us)) return true;
  if (server.pid_ns !== us.pid_ns || server.boot_id !== us.boot_id) return false;
  if (!isAlive(server.pid)) return true;
  if (server.started === null) return false;
  // Only a start time read and different says "reused"; a read that fails for another reason than
  // the process having just ended (too many open files, no permission) says nothing.
  let stat: string;
  try {
    stat = readFileSync(`/proc/${server.pid}/stat`, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  return startTimeIn(stat) !== server.started;
}

function isEarlierBootOfOurs(server: ServerIdentity, us: ServerIdentity): boolean {
  if (us.machine_id === null || us.boot_id === null || typeof server.boot_id !== 'string') return false;
  return server.machine_id === us.machine_id && server.boot_id !== us.boot_id;
}

/** The folder's server.json, or null when it is missing or not one (written by a start killed midway). */
function readServer(folder: string): ServerIdentity | null {
  let text: string;
  try {
    text = readFileSync(join(folder, SERVER_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error; // unreadable (another user's folder): not ours to judge
  }
  try {
    const server = JSON.parse(text) as Partial<ServerIdentity> | null;
    return typeof server?.pid === 'number' && typeof server.host === 'string' ? (server as ServerIdentity) : null;
  } catch {
    return null;
  }
}

export function identityOf(pid: number): ServerIdentity {
  return {
    pid,
    started: startTimeOf(pid),
    pid_ns: readOrNull(() => readlinkSync('/proc/self/ns/pid')),
    boot_id: readOrNull(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()),
    machine_id: readOrNull(() => readFileSync('/etc/machine-id', 'utf8').trim()),
    host: hostname(),
  };
}

function startTimeOf(pid: number): string | null {
  const stat = readOrNull(() => readFileSync(`/proc/${pid}/stat`, 'utf8'));
  return stat === null ? null : startTimeIn(stat);
}

/** Field 22 of /proc/PID/stat, counted after the command's name, which may hold spaces and parentheses. */
function startTimeIn(stat: string): string | null {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: existence check only
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // exists, but belongs to another user
  }
}

/** Up to `count` of `names`, in random order (a partial Fisher-Yates shuffle). */
function pickAtRandom(names: string[], count: number): string[] {
  for (let i = 0; i < Math.min(count, names.length); i++) {
    const j = i + Math.floor(Math.random() * (names.length - i));
    [names[i], names[j]] = [names[j] as string, names[i] as string];
  }
  return names.slice(0, count);
}

function readOrNull(read: () => string): string | null {
  try {
    return read();
  } catch {
    return null; // no /proc or /etc/machine-id (not Linux, or not there)
  }
}

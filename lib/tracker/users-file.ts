// Who is asking over HTTP: per-user bearer tokens (--users-file), so that a team sharing one
// `--http` instance is several people, not one `--user`.
//
// The file, one user a line (blank lines and lines starting with # are skipped):
//
//   TOKEN HANDLE [toolsets=issues,sprints] [read-only]
//
// TOKEN is 16 or more visible ASCII characters (a random one: `openssl rand -hex 32`), HANDLE the
// person (alice), who is a person of the people directory from the server's start (meetUsers). A request with `Authorization: Bearer TOKEN` is served as HANDLE: currentUser(),
// the reporter of what it creates, the author of its comments and the `by` of its history, never
// an argument a model could set. `toolsets=` and `read-only` bound what that token may use.
//
// A request may narrow its token further, as GitHub's and Atlassian's servers let it: the header
// `X-MCP-Toolsets: issues` or `?toolsets=issues`, and `X-MCP-Readonly: true` or `?read_only=true`.
// It cannot widen it: a toolset its token does not allow is refused with 403. In the handshake
// era a session keeps what the request that opened it was given (its tools do not change under
// the client, which was told `listChanged: false`).

import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AuthInfo } from '../../protocol/context.js';
import { parseHandle, type TrackerStore } from '../store/index.js';
import {
  type ToolSelection,
  type ToolsetName,
  TOOLSET_NAMES,
  parseReadOnlyVariable,
  parseToolsets,
  selectionExtra,
} from './toolsets.js';

export interface UserToken {
  readonly user: string;
  /** What the token may use at most; undefined toolsets: every set. */
  readonly selection: ToolSelection;
  /** SHA-256 of the token: the token itself is not kept. */
  readonly digest: Buffer;
}

/** A request's refusal, as the HTTP transport's authenticate hook answers it. */
export interface AccessRefusal {
  status: 400 | 401 | 403;
  message: string;
}

const TOKEN = /^[\x21-\x7e]{16,}$/;
const digestOf = (token: string): Buffer => createHash('sha256').update(token).digest();

/** The file's users; a mistake in it is a startup error naming its line. */
export function readUsersFile(path: string): UserToken[] {
  return parseUsers(readFileSync(path, 'utf8'), path);
}

export function parseUsers(text: string, source: string): UserToken[] {
  const users: UserToken[] = [];
  const seen = new Set<string>();
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const where = `${source} line ${index + 1}`;
    const [token = '', handle, ...options] = line.split(/\s+/);
    if (!TOKEN.test(token)) throw new Error(`${where}: a token is 16 or more visible characters, no spaces`);
    if (handle === undefined) throw new Error(`${where}: TOKEN HANDLE [toolsets=LIST] [read-only], the handle is missing`);
    const digest = digestOf(token);
    if (seen.has(digest.toString('hex'))) throw new Error(`${where}: this token is given twice`);
    seen.add(digest.toString('hex'));
    users.push({ user: checkedHandle(handle, where), selection: optionsOf(options, where), digest });
  });
  if (users.length === 0) throw new Error(`${source} names no user: write lines of TOKEN HANDLE`);
  return users;
}

function checkedHandle(handle: string, where: string): string {
  try {
    return parseHandle(handle, 'handle');
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message}`);
  }
}

function optionsOf(options: readonly string[], where: string): ToolSelection {
  let toolsets: ToolsetName[] | undefined;
  let readOnly = false;
  for (const option of options) {
    if (option === 'read-only') readOnly = true;
    else if (option.startsWith('toolsets=')) toolsets = parseToolsets(option.slice('toolsets='.length), `${where}: toolsets`);
    else throw new Error(`${where}: unknown option ${option}; options are toolsets=LIST and read-only`);
  }
  return { toolsets, readOnly };
}

/** Each user of the file is a person of the directory: added at start when it lacks them (by handle). */
export function meetUsers(store: TrackerStore, users: readonly UserToken[]): Promise<unknown> {
  return store.meetPeople(users.map(({ user }) => ({ handle: user, name: user })));
}

/**
 * The transport's authenticate hook over these users. Every token is compared, each through its
 * digest with timingSafeEqual and none skipped once one matched, so the time taken says nothing
 * about which token came close (http-access.ts bearerMatches does the same for one token).
 */
export function authenticateUsers(
  users: readonly UserToken[],
): (token: string, req: IncomingMessage) => AuthInfo | AccessRefusal {
  return (token, req) => {
    const given = digestOf(token);
    let found: UserToken | undefined;
    for (const user of users) if (timingSafeEqual(given, user.digest) && found === undefined) found = user;
    if (found === undefined) return { status: 401, message: 'Unauthorized: a valid bearer token is required' };
    const narrowed = narrowedBy(req, found);
    if ('status' in narrowed) return narrowed;
    return { subject: found.user, extra: selectionExtra(narrowed) };
  };
}

/** What the request asks for within what its token allows, or why it may not. */
function narrowedBy(req: IncomingMessage, { user, selection }: UserToken): ToolSelection | AccessRefusal {
  const query = new URL(req.url ?? '/', 'http://x').searchParams;
  const toolsetsText = header(req, 'x-mcp-toolsets') ?? query.get('toolsets') ?? undefined;
  const readOnlyText = header(req, 'x-mcp-readonly') ?? query.get('read_only') ?? undefined;
  let asked: ToolsetName[] | undefined;
  let readOnly: boolean;
  try {
    asked = toolsetsText === undefined ? undefined : parseToolsets(toolsetsText, 'X-MCP-Toolsets');
    readOnly = parseReadOnlyVariable(readOnlyText, 'X-MCP-Readonly');
  } catch (error) {
    return { status: 400, message: `Bad Request: ${(error as Error).message}` };
  }
  const allowed = selection.toolsets ?? TOOLSET_NAMES;
  const beyond = asked?.filter((name) => !allowed.includes(name)) ?? [];
  if (beyond.length > 0) {
    const message = `Forbidden: ${user}'s token allows the toolsets ${allowed.join(', ')}, not ${beyond.join(', ')}`;
    return { status: 403, message };
  }
  // Read-only can be asked for, never undone: false leaves the token's own setting.
  return { toolsets: asked ?? selection.toolsets, readOnly: readOnly || selection.readOnly === true };
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

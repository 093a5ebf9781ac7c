// Shared by the runner's tests: throwaway stdio servers written as small node scripts, and a
// way to play an inline fixture against one.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFixture } from '../runner/fixture-parser.js';
import { runFixture } from '../runner/run-fixture.js';
import type { FixtureResult } from '../runner/fixture-result.js';
import type { SchemaValidator } from '../runner/schema-validator.js';

export const scratchDir = mkdtempSync(join(tmpdir(), 'mcp-conform-test-'));
process.on('exit', () => rmSync(scratchDir, { recursive: true, force: true }));

export interface TinyServerHooks {
  /** Runs first; `msg` is the parsed message. Return to stop handling it. */
  onMessage?: string;
  /** Runs once at start-up. */
  atStart?: string;
  /** What happens on stdin EOF (default: exit 0). */
  onEnd?: string;
  /** What happens to a line that is not JSON (default: a -32700 reply). */
  onParseError?: string;
}

/** A minimal, correct line-based MCP server, with hooks to make it misbehave. Returns its command. */
export function tinyServer(name: string, hooks: TinyServerHooks = {}): string {
  const source = `
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
${hooks.atStart ?? ''}
const rl = require("node:readline").createInterface({ input: process.stdin });
rl.on("line", (line) => {
  let msg;
  try { msg = JSON.parse(line); } catch { ${hooks.onParseError ?? 'return send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });'} return; }
  ${hooks.onMessage ?? ''}
  if (!("id" in msg) || !("method" in msg)) return;
  if (msg.method === "initialize") return send({ jsonrpc: "2.0", id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "tiny", version: "1" } } });
  if (msg.method === "ping") return send({ jsonrpc: "2.0", id: msg.id, result: {} });
  send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } });
});
rl.on("close", () => { ${hooks.onEnd ?? 'process.exit(0);'} });
`;
  const path = join(scratchDir, `${name}.cjs`);
  writeFileSync(path, source);
  return `"${process.execPath}" "${path}"`;
}

export interface InlineRunOptions {
  stepTimeoutMs?: number;
  schema?: SchemaValidator;
  update?: boolean;
}

export function runInline(fixtureText: string, serverCommand: string, options: InlineRunOptions = {}): Promise<FixtureResult> {
  const fixture = parseFixture(fixtureText, 'inline.txtar', 'inline');
  return runFixture(
    { ok: true, fixture },
    {
      serverCommand,
      stepTimeoutMs: options.stepTimeoutMs ?? 1000,
      // Servers here answer at once when they answer at all; a loaded machine may be slow to start them.
      startupTimeoutMs: 10_000,
      schema: options.schema,
      update: options.update ?? false,
    },
  );
}

export const PING_FIXTURE = `A ping.
protocol: any

-- client --
{"jsonrpc":"2.0","id":1,"method":"ping"}
-- server --
{"jsonrpc":"2.0","id":1,"result":{}}
`;

// mcp-conform: a conformance runner for MCP servers over stdio, driven by transcript fixtures
// (spec-tests/FORMAT.md). It is an independent client: it imports nothing from protocol/ or
// lib/, so it can judge any server in any language. stdout carries the report and nothing else.
import { parseArguments, UsageError, USAGE } from './cli-args.js';
import { runCommand } from './run-command.js';
import { recordCommand } from './record-command.js';
import { listCommand } from './list-command.js';
import { RUNNER_VERSION } from './handshake.js';

async function main(argv: string[]): Promise<number> {
  const args = parseArguments(argv);
  if (args.command === 'help') return print(`${USAGE}\n`);
  if (args.command === 'version') return print(`${RUNNER_VERSION}\n`);
  if (args.command === 'record') return recordCommand(args.out, args.serverArgv, args.redact);
  if (args.command === 'list') return listCommand(args, (text) => process.stdout.write(text));
  return runCommand(args, {
    write: (text) => process.stdout.write(text),
    isTerminal: process.stdout.isTTY === true,
    env: process.env,
    warn: (text) => process.stderr.write(text),
  });
}

function print(text: string): number {
  process.stdout.write(text);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`mcp-conform: ${error.message}\n\n${USAGE}\n`);
    else process.stderr.write(`mcp-conform: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);

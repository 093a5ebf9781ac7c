// Import this module first, before anything else runs.
//
// stdout carries protocol messages and nothing else: "The server MUST NOT write anything to
// its stdout that is not a valid MCP message" (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports, "stdio"). A stray
// console.log is the most common MCP bug in the wild. So from here on every
// console method and every direct process.stdout.write goes to stderr, and the only way to
// write to the real stdout is the function this module hands out once, to the line writer.

import { format } from 'node:util';

type WriteFn = typeof process.stdout.write;

const realStdoutWrite: WriteFn = process.stdout.write.bind(process.stdout);
let claimed = false;

const toStderr = (...args: unknown[]): void => {
  process.stderr.write(format(...args) + '\n');
};
console.log = toStderr;
console.info = toStderr;
console.debug = toStderr;
console.warn = toStderr;
console.trace = toStderr;
console.dir = (value: unknown) => toStderr(value);
process.stdout.write = ((chunk: unknown, ...rest: unknown[]) =>
  (process.stderr.write as (...args: unknown[]) => boolean)(chunk, ...rest)) as WriteFn;

// A client that closes our stderr must not turn each diagnostic into an EPIPE exception (which,
// reported to stderr in turn, would spin forever): diagnostics are then dropped.
process.stderr.on('error', () => {});

/** The real stdout write, for the one writer that owns it. Can be claimed once. */
export function claimStdout(): WriteFn {
  if (claimed) throw new Error('stdout is already claimed by a writer');
  claimed = true;
  return realStdoutWrite;
}

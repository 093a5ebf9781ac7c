// A server that starts reading its stdin late, for tests: runs COMMAND at once but passes the
// client's stdin on to it only after DELAY_MS. Until then the client's bytes wait in the pipe to
// this wrapper (the kernel holds a pipe's worth, then the client's writes wait), as they would
// for a server busy starting up, so nothing is buffered here and nothing is lost. stdout and
// stderr are the child's own descriptors (never copied, so stdout stays as pure as the server
// keeps it), signals sent to the wrapper reach the child, and the wrapper ends as the child did:
// the same exit code, or the same signal.
//
//   node spec-tests/test-support/late-stdin.mjs DELAY_MS COMMAND [ARG...]
//
// Used to reproduce a host whose server/discover probe times out before the server answers:
// https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio (backward compatibility).
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const [delayText = '', command, ...args] = process.argv.slice(2);
const delayMs = Number(delayText);
if (command === undefined || !/^\d+$/.test(delayText)) {
  process.stderr.write('usage: late-stdin.mjs DELAY_MS COMMAND [ARG...]\n');
  process.exit(2);
}

const child = spawn(command, args, { stdio: ['pipe', 'inherit', 'inherit'] });
// A child that exits without reading all of its input closes the pipe: that is its business.
child.stdin.on('error', () => {});
for (const signal of FORWARDED_SIGNALS) process.on(signal, () => child.kill(signal));

// process.stdin is opened only here: before that nobody reads the wrapper's stdin at all.
const startReading = setTimeout(() => process.stdin.pipe(child.stdin), delayMs);

child.on('error', (error) => {
  process.stderr.write(`late-stdin: cannot start ${command}: ${error.message}\n`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  clearTimeout(startReading);
  if (signal === null) process.exit(code ?? 1);
  endBySignal(signal);
});

/** Dies of the child's signal, so a caller sees what it would have seen without the wrapper. */
function endBySignal(signal) {
  for (const forwarded of FORWARDED_SIGNALS) process.removeAllListeners(forwarded);
  process.kill(process.pid, signal);
  // A signal Node ignores (SIGPIPE) does not end us: exit with the shell's code for it instead.
  setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 100);
}

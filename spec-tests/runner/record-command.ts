// `mcp-conform record --out FILE -- CMD ARGS`: sits between a real MCP host and a server as a
// transparent stdio proxy (bytes pass through unchanged, stderr is inherited) and writes the
// session as a fixture when the server exits, with the values that change from run to run and
// the --redact fields replaced. Its own messages go to stderr, because its
// stdout is the host's channel to the server.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { LineSplitter } from './line-splitter.js';
import { Transcript } from './transcript.js';

export function recordCommand(out: string, serverArgv: string[], redact: readonly string[] = []): Promise<number> {
  const [program, ...args] = serverArgv;
  if (program === undefined) return Promise.resolve(2);
  const transcript = new Transcript(new Set(redact));
  const child = spawn(program, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const fromClient = new LineSplitter();
  const fromServer = new LineSplitter();

  process.stdin.on('data', (chunk: Buffer) => {
    child.stdin.write(chunk);
    fromClient.push(chunk).forEach((line) => transcript.add('client', line));
  });
  process.stdin.on('end', () => {
    const rest = fromClient.finish();
    if (rest) transcript.add('client', rest, false);
    transcript.closeStdin();
    child.stdin.end();
  });
  child.stdin.on('error', () => undefined); // the server may exit while the host still writes
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    fromServer.push(chunk).forEach((line) => transcript.add('server', line));
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));

  return new Promise((resolve) => {
    child.on('error', (error) => {
      process.stderr.write(`mcp-conform record: cannot start ${program}: ${error.message}\n`);
      resolve(2);
    });
    child.on('close', (code) => {
      const rest = fromServer.finish();
      if (rest) transcript.add('server', rest, false);
      writeFileSync(out, transcript.toFixture(serverArgv.join(' '), new Date(), code));
      process.stderr.write(`mcp-conform record: wrote ${out}\n`);
      process.stdin.destroy();
      resolve(code ?? 1);
    });
  });
}

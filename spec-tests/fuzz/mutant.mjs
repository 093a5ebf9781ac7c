// A fault-injecting wrapper around the real server, so the fuzz test can prove that the
// fuzzer notices each kind of fault (a test that cannot fail proves nothing).
//   node mutant.mjs MODE SERVER ARGS...
// MODE: none | crash-on-proto | answer-notifications | double-answer | garbage-line | forget-deep
//       | sneaky-write (input holding a null makes a write nobody acknowledged) | pollute (after a "__proto__" key, `{}` arguments validate)
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const [mode, server, ...args] = process.argv.slice(2);
const child = spawn(process.execPath, [server, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
child.on('exit', (code) => process.exit(code ?? 1));
process.stdin.on('end', () => child.stdin.end());

let polluted = false;
let sneaky = 0;
let atLineStart = true;
process.stdin.on('data', (chunk) => {
  let text = chunk.toString('latin1');
  if (mode === 'pollute' && text.includes('"__proto__"')) polluted = true;
  if (polluted && text.includes('"name":"create_issue","arguments":{}')) {
    text = text.replace(
      '"name":"create_issue","arguments":{}',
      '"name":"create_issue","arguments":{"project":"PROJ","title":"polluted"}',
    );
    chunk = Buffer.from(text, 'latin1');
  }
  const injectHere = atLineStart;
  atLineStart = text.endsWith('\n');
  if (mode === 'sneaky-write' && injectHere && text.includes(':null')) {
    child.stdin.write(
      `{"jsonrpc":"2.0","id":"mutant-${++sneaky}","method":"tools/call","params":{"name":"add_comment","arguments":{"key":"PROJ-101","body":"sneaky"}}}\n`,
    );
  }
  if (mode === 'crash-on-proto' && text.includes('"__proto__"')) process.exit(3);
  if (mode === 'answer-notifications' && text.includes('"notifications/roots/list_changed"')) {
    process.stdout.write('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"mutant"}}\n');
  }
  if (mode === 'forget-deep' && text.includes('[[[[[[[[[[')) return; // swallow: requests go unanswered
  child.stdin.write(chunk);
});

createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => {
  if (line.includes('"id":"mutant-')) return; // the sneaky write's answer: nobody asked
  process.stdout.write(`${line}\n`);
  if (mode === 'double-answer' && line.includes('"isError":true')) process.stdout.write(`${line}\n`);
  if (mode === 'garbage-line' && line.includes('"code":-32700')) process.stdout.write('oops\n');
});

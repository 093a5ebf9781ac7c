// Issue 30's adversarial loads against `mcp-tracker --http`, on loopback, each bounded in
// clients and seconds and stopping by itself. Starts the server, runs one scenario, samples the
// server's RSS and open file descriptors, and probes it all along as another client would (a
// 2026-07-28 tools/list (a cheap request; ping is handshake-era only), and a create_issue every fifth probe): how long they took and what they got.
//
//   node scripts/http-hardening/load.mjs SCENARIO DATA_FILE ISSUE_KEY [--dist DIR] [--seconds N]
//        [--clients N] [--rss-stop MB] [-- server flags...]
//
// SCENARIO: never-read (480 clients each POST a 2026-07-28 resources/read of ISSUE_KEY, then
// never read), held-bodies (60 clients declare 32 MiB bodies and send all but the last byte),
// trickle (520 clients trickle headers or a body, one byte every 2 s, and reconnect when cut),
// idle (20,000 sockets that send nothing, reconnecting when cut: held by child processes of
// 10,000 each, as this machine's file limit is 20,000 a process and cannot be raised),
// initialize (100 bare initialize POSTs from 127.0.0.1, then a client of 127.0.0.1 and one of
// 127.0.0.2 try to open a session). The probes come from 127.0.0.3, another peer address.
// --rss-stop: the run stops early once the server's RSS passes this many MB (default 3000), so a
// server without bounds cannot take the machine down.
import { spawn, fork } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';

const args = process.argv.slice(2);

async function main() {
  const dashes = args.indexOf('--');
  const serverFlags = dashes === -1 ? [] : args.slice(dashes + 1);
  const own = dashes === -1 ? args : args.slice(0, dashes);
  const [scenario, dataFile, issueKey] = own;
  const option = (name, fallback) => {
    const at = own.indexOf(name);
    return at === -1 ? fallback : own[at + 1];
  };
  const dist = option('--dist', 'dist');
  const defaults = { 'never-read': 480, 'held-bodies': 60, trickle: 520, idle: 20_000, initialize: 100 };
  const clients = Number(option('--clients', defaults[scenario]));
  const seconds = Number(option('--seconds', scenario === 'initialize' ? 5 : 60));
  const rssStopMb = Number(option('--rss-stop', 3000));
  if (!defaults[scenario] || !dataFile) throw new Error('usage: load.mjs SCENARIO DATA_FILE ISSUE_KEY [options] [-- flags]');

  const server = spawn(process.execPath, [`${dist}/mcp-tracker.mjs`, '--data', dataFile, '--http', '127.0.0.1:0', ...serverFlags], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stderrLines = [];
  const port = await new Promise((resolve, reject) => {
    let text = '';
    server.stderr.on('data', (chunk) => {
      text += chunk;
      const lines = text.split('\n');
      text = lines.pop();
      for (const line of lines) {
        if (stderrLines.length < 2000) stderrLines.push(line);
        const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
        if (match) resolve(Number(match[1]));
      }
    });
    server.on('exit', (code) => reject(new Error(`server exited ${code}: ${stderrLines.join('\n')}`)));
  });
  let serverExit;
  server.on('exit', (code, signal) => (serverExit = `exited (${code ?? signal})`));
  const baseline = sample(server.pid);
  console.log(`server pid ${server.pid} port ${port}; baseline RSS ${baseline.rssMb} MB, ${baseline.fds} fds`);

  const started = Date.now();
  const stopAt = started + seconds * 1000;
  const attack = await startAttack(scenario, { port, clients, issueKey, stopAt });
  const probes = [];
  let peak = baseline;
  let stoppedEarly = '';
  for (let round = 0; Date.now() < stopAt && !serverExit; round++) {
    const now = sample(server.pid);
    if (now.rssMb > peak.rssMb) peak = { ...now, at: ((Date.now() - started) / 1000).toFixed(1) };
    if (now.rssMb > rssStopMb) {
      stoppedEarly = `stopped at ${((Date.now() - started) / 1000).toFixed(1)} s: RSS ${now.rssMb} MB passed --rss-stop ${rssStopMb}`;
      break;
    }
    probes.push(await probe(port, round % 5 === 4 ? 'create_issue' : 'tools/list'));
    if (round % 10 === 0) {
      const last = probes.at(-1);
      console.log(
        `t=${((Date.now() - started) / 1000).toFixed(1)}s RSS ${now.rssMb} MB fds ${now.fds} ${attack.status()} probe ${last.what} ${last.outcome} ${last.ms.toFixed(1)} ms`,
      );
    }
    await sleep(500);
  }
  const final = sample(server.pid);
  attack.stop();
  await sleep(300);
  const after = await probe(port, 'create_issue');
  server.kill('SIGKILL');
  summarize({ scenario, clients, seconds, serverFlags, baseline, peak, final, probes, after, stoppedEarly, serverExit, attack });
  const notable = stderrLines.filter((line) => /FATAL|EMFILE|heap|internal error/i.test(line)).slice(0, 5);
  if (notable.length > 0) console.log(`server stderr (first notable lines):\n  ${notable.join('\n  ')}`);
  process.exit(0);
}

function summarize({ scenario, clients, seconds, serverFlags, baseline, peak, final, probes, after, stoppedEarly, serverExit, attack }) {
  const outcomes = {};
  for (const one of probes) outcomes[`${one.what} ${one.outcome}`] = (outcomes[`${one.what} ${one.outcome}`] ?? 0) + 1;
  const pings = probes.filter((one) => one.what === 'tools/list' && one.outcome === '200').map((one) => one.ms).sort((a, b) => a - b);
  const pct = (sorted, p) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]);
  console.log(`\n== ${scenario}: ${clients} clients, ${seconds} s, flags [${serverFlags.join(' ')}]`);
  if (stoppedEarly) console.log(`   ${stoppedEarly}`);
  if (serverExit) console.log(`   the server ${serverExit}`);
  console.log(`   RSS: baseline ${baseline.rssMb} MB, peak sampled ${peak.rssMb} MB (at ${peak.at ?? 0} s), final ${final.rssMb} MB, VmHWM ${final.hwmMb} MB`);
  console.log(`   fds: baseline ${baseline.fds}, peak ${peak.fds}, final ${final.fds}`);
  console.log(`   attack: ${attack.status()}`);
  console.log(`   probes from 127.0.0.3: ${JSON.stringify(outcomes)}`);
  console.log(`   tools/list p50 ${pct(pings, 0.5).toFixed(1)} ms, max ${(pings.at(-1) ?? NaN).toFixed(1)} ms over ${pings.length} answered`);
  console.log(`   after the attack stopped: ${after.what} ${after.outcome} in ${after.ms.toFixed(1)} ms`);
}

function sample(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { rssMb: Math.round(kb('VmRSS') / 1024), hwmMb: Math.round(kb('VmHWM') / 1024), fds: readdirSync(`/proc/${pid}/fd`).length };
  } catch {
    return { rssMb: 0, hwmMb: 0, fds: 0 };
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/** A 2026-07-28 request as raw HTTP/1.1 bytes. */
function statelessRequest(port, id, method, params = {}, name) {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } });
  return (
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
    `Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: ${method}\r\n` +
    (name === undefined ? '' : `Mcp-Name: ${name}\r\n`) +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** One request from another peer address, on a fresh connection: its status (or why none) and time, bounded at 10 s. */
function probe(port, what) {
  const request =
    what === 'tools/list'
      ? statelessRequest(port, 1, 'tools/list')
      : statelessRequest(port, 1, 'tools/call', { name: 'create_issue', arguments: { project: 'PROJ', title: 'probe' } }, 'create_issue');
  const start = performance.now();
  return new Promise((resolve) => {
    let text = '';
    let done = false;
    const finish = (outcome) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ what, outcome, ms: performance.now() - start });
    };
    const socket = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.3' }, () => socket.write(request));
    socket.setTimeout(10_000, () => finish('no answer in 10 s'));
    socket.on('data', (chunk) => {
      text += chunk;
      const status = /^HTTP\/1\.1 (\d+)/.exec(text)?.[1];
      if (status !== '200' && status) return finish(status);
      if (status === '200' && text.includes('"result"')) {
        if (what === 'create_issue' && text.includes('"isError":true')) return finish('tool error');
        finish('200');
      }
    });
    socket.on('error', (error) => finish(error.code ?? error.message));
    socket.on('close', () => finish(text ? `closed after ${/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 'bytes'}` : 'closed'));
  });
}

async function startAttack(scenario, { port, clients, issueKey, stopAt }) {
  const sockets = new Set();
  const counts = { opened: 0, refused: 0, closedByServer: 0, statuses: {} };
  let stopped = false;
  const open = (onConnect, localAddress = '127.0.0.1') => {
    const socket = connect({ port, host: '127.0.0.1', localAddress }, () => onConnect(socket));
    counts.opened += 1;
    sockets.add(socket);
    socket.on('error', () => (counts.refused += 1));
    socket.on('close', () => {
      sockets.delete(socket);
      if (!stopped) counts.closedByServer += 1;
    });
    return socket;
  };
  const noteStatus = (socket) =>
    socket.once('data', (chunk) => {
      const status = /^HTTP\/1\.1 (\d+)/.exec(chunk.toString('latin1'))?.[1] ?? 'bytes';
      counts.statuses[status] = (counts.statuses[status] ?? 0) + 1;
    });
  const stop = () => {
    stopped = true;
    for (const socket of sockets) socket.destroy();
  };
  const status = () => `${sockets.size} attack sockets open (${counts.opened} opened, ${counts.closedByServer} closed by the server, ${counts.refused} errors, first bytes ${JSON.stringify(counts.statuses)})`;

  if (scenario === 'never-read') {
    const request = statelessRequest(port, 1, 'resources/read', { uri: `jira://issue/${issueKey}` }, `jira://issue/${issueKey}`);
    for (let i = 0; i < clients; i++) {
      // Paused: the socket reads nothing, so the server's answer waits in its buffers.
      open((socket) => socket.write(request)).pause();
      if (i % 50 === 49) await sleep(100);
    }
  } else if (scenario === 'held-bodies') {
    const size = 32 * 1024 * 1024;
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${size}\r\n\r\n`;
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    for (let i = 0; i < clients; i++) {
      open((socket) => {
        noteStatus(socket);
        socket.write(head);
        for (let sent = 0; sent < size - 1; sent += chunk.length) socket.write(chunk.subarray(0, Math.min(chunk.length, size - 1 - sent)));
      });
      await sleep(50);
    }
  } else if (scenario === 'trickle') {
    const trickler = (headers) => () => {
      if (stopped || Date.now() > stopAt) return;
      const text = headers
        ? `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: ${'a'.repeat(10_000)}`
        : `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n{"a":"${'a'.repeat(100_000)}`;
      let at = headers ? 0 : text.indexOf('\r\n\r\n') + 4;
      const socket = open((connected) => {
        noteStatus(connected);
        connected.write(text.slice(0, at));
        const timer = setInterval(() => (connected.destroyed ? clearInterval(timer) : connected.write(text[at++])), 2000);
        connected.on('close', () => clearInterval(timer));
      });
      // The attacker reconnects as soon as it is cut off.
      socket.on('close', () => setTimeout(trickler(headers), 100));
    };
    // `clients` trickle their bodies, and a tenth as many more their headers.
    for (let i = 0; i < clients + Math.ceil(clients / 10); i++) {
      trickler(i >= clients)();
      if (i % 50 === 49) await sleep(100);
    }
  } else if (scenario === 'idle') {
    const perChild = 10_000;
    const children = [];
    for (let left = clients; left > 0; left -= perChild) {
      const child = fork(new URL(import.meta.url).pathname, ['--idle-child', String(port), String(Math.min(left, perChild)), String(stopAt)], {
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      const entry = { child, line: 'starting' };
      child.on('message', (line) => (entry.line = line));
      children.push(entry);
    }
    return {
      status: () => children.map((entry) => entry.line).join('; '),
      stop: () => children.forEach((entry) => entry.child.kill()),
    };
  } else if (scenario === 'initialize') {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'greedy', version: '1' } },
    });
    const post = (localAddress) =>
      fetchStatus(port, body, localAddress);
    for (let i = 0; i < clients; i++) {
      const status = await post('127.0.0.1');
      counts.statuses[status] = (counts.statuses[status] ?? 0) + 1;
    }
    counts.afterwards = { from127_0_0_1: await post('127.0.0.1'), from127_0_0_2: await post('127.0.0.2') };
    return { status: () => `${status()}; then a new client from 127.0.0.1: ${counts.afterwards.from127_0_0_1}, from 127.0.0.2: ${counts.afterwards.from127_0_0_2}`, stop };
  }
  return { status, stop };
}

/** One POST on a fresh connection from `localAddress`: the status it gets. */
function fetchStatus(port, body, localAddress) {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress }, () =>
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      ),
    );
    socket.setTimeout(5000, () => (socket.destroy(), resolve('timeout')));
    socket.once('data', (chunk) => {
      resolve(/^HTTP\/1\.1 (\d+)/.exec(chunk.toString('latin1'))?.[1] ?? 'bytes');
      socket.destroy();
    });
    socket.on('error', (error) => resolve(error.code));
  });
}

/** A child process holding `count` idle sockets, reconnecting each one the server closes, until `stopAt`. */
async function idleChild(port, count, stopAt) {
  let open = 0;
  let closed = 0;
  let errors = 0;
  const timer = setInterval(() => process.send?.(`${open} idle open, ${closed} closed by the server, ${errors} errors`), 1000);
  const one = () => {
    if (Date.now() > stopAt) return;
    let connected = false;
    const socket = connect({ port, host: '127.0.0.1' });
    socket.on('connect', () => {
      connected = true;
      open += 1;
    });
    socket.on('error', () => (errors += 1));
    socket.on('close', () => {
      if (connected) open -= 1;
      closed += 1;
      setTimeout(one, 200);
    });
  };
  for (let i = 0; i < count; i++) {
    one();
    if (i % 500 === 499) await sleep(50);
  }
  setTimeout(() => {
    clearInterval(timer);
    process.exit(0);
  }, Math.max(0, stopAt - Date.now()));
}

if (args[0] === '--idle-child') await idleChild(Number(args[1]), Number(args[2]), Number(args[3]));
else await main();

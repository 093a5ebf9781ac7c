// The HTTP endpoint's budget and each client's share of it (http-budget.ts): what a client
// that never reads, holds a body open, trickles, hoards connections or sessions gets, and that
// another client (another peer address: 127.0.0.2) is still served meanwhile.
import { request as httpRequest } from 'node:http';
import { type Socket, connect } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as z from 'zod/mini';
import { type HttpEndpoint, type HttpOptions, serveHttp } from '../http.js';
import { createServer } from '../server.js';
import { initializeRequest } from './http-client.js';

const BIG = 32 * 1024 * 1024;
/** The `hold` calls running now, oldest first: each one's way to finish. */
const holds: Array<() => void> = [];
/** Waits until `count` hold calls run (no fixed sleep: the machine may be slow). */
async function holding(count: number): Promise<void> {
  while (holds.length < count) await sleep(10);
}

async function endpoint(options: Partial<HttpOptions>): Promise<HttpEndpoint> {
  const server = createServer({
    info: { name: 'budget-test', version: '1.0.0' },
    tools: [
      {
        name: 'big',
        description: 'Answers 32 MiB of text.',
        input: z.object({}),
        run: () => ({ content: [{ type: 'text', text: 'x'.repeat(BIG) }] }),
      },
      {
        name: 'small',
        description: 'Answers ok.',
        input: z.object({}),
        run: () => ({ content: [{ type: 'text', text: 'ok' }] }),
      },
      {
        name: 'hold',
        description: 'Runs until the test lets it go.',
        input: z.object({}),
        run: () => new Promise((resolve) => holds.push(() => resolve({ content: [] }))),
      },
    ],
  });
  return serveHttp(server, { port: 0, report: () => {}, ...options });
}

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const callTool = (name: string) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {}, _meta: META } });
const toolHeaders = (name: string) => ({ 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': name });

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request from `peer` (a loopback address of its own), read to its end. */
function send(url: string, peer: string, body: string, headers: Record<string, string> = {}, method = 'POST'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method,
        localAddress: peer,
        agent: false,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** A raw connection from `peer` that writes `text` and never reads. */
function rawSocket(url: string, peer: string, text = ''): Promise<Socket> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress: peer }, () => {
      socket.write(text);
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

/** What a raw socket gets until the server closes it (or `ms` pass): its text, and whether it was closed. */
function untilClosed(socket: Socket, ms: number): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    let text = '';
    socket.resume();
    socket.on('data', (chunk) => (text += chunk));
    const timer = setTimeout(() => resolve({ text, closed: false }), ms);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
  });
}

const rawPost = (url: string, body: string, headers: Record<string, string>, declared = Buffer.byteLength(body)) => {
  const { host } = new URL(url);
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${lines.join('')}Content-Length: ${declared}\r\n\r\n${body}`;
};

/** How long until a cheap call from `peer` is answered 200 (polling), or `ms` when it never is. */
async function untilServed(peer: string, url: string, ms: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if ((await send(url, peer, callTool('small'), toolHeaders('small'))).status === 200) return Date.now() - started;
    await sleep(100);
  }
  return ms;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a client that never reads: past its share of --max-queued-bytes 429 with Retry-After, others served; its stalled answer closed, its share freed', async () => {
  const http = await endpoint({ maxQueuedBytes: 40 * 1024 * 1024, stallMs: 300 });
  const greedy = await rawSocket(http.url, '127.0.0.1', rawPost(http.url, callTool('big'), toolHeaders('big')));
  try {
    greedy.pause();
    await sleep(200);
    const again = await send(http.url, '127.0.0.1', callTool('small'), toolHeaders('small'));
    assert.is(again.status, 429, 'the 32 MiB answer waiting unread is more than its 20 MiB share');
    assert.is(again.headers['retry-after'], '1');
    assert.match(JSON.parse(again.body).error.message, /Too Many Requests/);
    const other = await send(http.url, '127.0.0.2', callTool('small'), toolHeaders('small'));
    assert.is(other.status, 200, 'another peer still has room');
    // No progress for stallMs: the response is closed, and with it what it held. (A client that
    // does not read cannot see the close; its share coming back is what shows it.)
    const freedAfter = await untilServed('127.0.0.1', http.url, 3000);
    assert.ok(freedAfter < 3000, `its share is free again once the stalled answer is closed (${freedAfter} ms)`);
  } finally {
    greedy.destroy();
    await http.close(100);
  }
});

test('with the whole output budget full, everyone gets 503, and an answer making no progress is closed after 2 s, not stallMs', async () => {
  const http = await endpoint({ maxQueuedBytes: 16 * 1024 * 1024 });
  const greedy = await rawSocket(http.url, '127.0.0.1', rawPost(http.url, callTool('big'), toolHeaders('big')));
  try {
    greedy.pause();
    await sleep(200);
    const other = await send(http.url, '127.0.0.2', callTool('small'), toolHeaders('small'));
    assert.equal([other.status, other.headers['retry-after']], [503, '1'], 'a 32 MiB answer fills a 16 MiB budget');
    const freedAfter = await untilServed('127.0.0.2', http.url, 6000);
    assert.ok(freedAfter < 4500, `closed within about 2 s, not the 30 s of stallMs (${freedAfter} ms)`);
  } finally {
    greedy.destroy();
    await http.close(100);
  }
});

test('--max-in-flight over HTTP: past it a request waits for a slot (as on stdio), 503 with Retry-After when none frees in time', async () => {
  const http = await endpoint({ maxInFlight: 2, slotWaitMs: 300 });
  holds.length = 0;
  try {
    const first = send(http.url, '127.0.0.1', callTool('hold'), toolHeaders('hold'));
    const second = send(http.url, '127.0.0.2', callTool('hold'), toolHeaders('hold'));
    await holding(2);
    let answered = false;
    const waiting = send(http.url, '127.0.0.3', callTool('small'), toolHeaders('small')).then((answer) => {
      answered = true;
      return answer;
    });
    await sleep(100);
    assert.not.ok(answered, 'both slots are taken: it waits');
    holds.shift()!();
    assert.is((await waiting).status, 200, 'a freed slot is taken at once');
    const third = send(http.url, '127.0.0.1', callTool('hold'), toolHeaders('hold'));
    await holding(2);
    const late = await send(http.url, '127.0.0.3', callTool('small'), toolHeaders('small'));
    assert.equal([late.status, late.headers['retry-after']], [503, '1'], 'no slot freed within slotWaitMs');
    assert.match(JSON.parse(late.body).error.message, /Service Unavailable: 2 requests are running/);
    assert.is(JSON.parse(late.body).id, 1, 'the refusal names the request it read (JSON-RPC: id null only when unreadable)');
    while (holds.length > 0) holds.shift()!();
    assert.equal([(await first).status, (await second).status, (await third).status], [200, 200, 200]);
  } finally {
    while (holds.length > 0) holds.shift()!();
    await http.close(100);
  }
});

test('--max-in-flight over HTTP: waiting peers take turns, so a greedy one cannot keep another waiting', async () => {
  const http = await endpoint({ maxInFlight: 1 });
  holds.length = 0;
  try {
    const held = send(http.url, '127.0.0.1', callTool('hold'), toolHeaders('hold'));
    await holding(1);
    const order: string[] = [];
    const small = (peer: string, name: string) =>
      send(http.url, peer, callTool('small'), toolHeaders('small')).then(() => order.push(name));
    const greedy1 = small('127.0.0.1', 'greedy 1');
    await sleep(100);
    const greedy2 = small('127.0.0.1', 'greedy 2');
    await sleep(100);
    const other = small('127.0.0.2', 'other');
    await sleep(100);
    holds.shift()!();
    await Promise.all([held, greedy1, greedy2, other]);
    assert.equal(order, ['greedy 1', 'other', 'greedy 2']);
  } finally {
    while (holds.length > 0) holds.shift()!();
    await http.close(100);
  }
});

test("request bodies: a declared length past the peer's half of the body budget is 429, past the total 503, unread; the slot returns when the body is done", async () => {
  const http = await endpoint({ maxMessageBytes: 1000 });
  const sockets: Socket[] = [];
  try {
    // Budget: 2 x 1000 bytes, 1000 a peer. 127.0.0.1 holds 900 of its 1000 with a body it never finishes.
    sockets.push(await rawSocket(http.url, '127.0.0.1', rawPost(http.url, '{"jsonrpc"', {}, 900)));
    await sleep(100);
    const body = JSON.stringify(initializeRequest()).padEnd(900, ' ');
    const mine = await send(http.url, '127.0.0.1', body);
    assert.equal([mine.status, mine.headers['retry-after'], mine.headers.connection], [429, '1', 'close']);
    assert.is((await send(http.url, '127.0.0.2', body)).status, 200, 'another peer has its own half');
    sockets.push(await rawSocket(http.url, '127.0.0.2', rawPost(http.url, '{"jsonrpc"', {}, 900)));
    await sleep(100);
    const third = await send(http.url, '127.0.0.3', body);
    assert.equal([third.status, third.headers['retry-after']], [503, '1'], '1800 of 2000 bytes are on their way');
    assert.is(
      (await send(http.url, '127.0.0.3', '{"jsonrpc":"2.0","method":"notifications/x"}')).status,
      400,
      'a small one fits',
    );
    sockets[0]!.destroy();
    await sleep(100);
    assert.is((await send(http.url, '127.0.0.1', body)).status, 200, 'a client that leaves frees its bytes');
    assert.is((await send(http.url, '127.0.0.1', 'x'.repeat(1001))).status, 413, 'past the message limit: 413, as before');
  } finally {
    for (const socket of sockets) socket.destroy();
    await http.close(100);
  }
});

test('timeouts of our own: a socket that sends nothing, trickled headers and a trickled body get 408 and are closed', async () => {
  const http = await endpoint({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
  try {
    const idle = await rawSocket(http.url, '127.0.0.1');
    const headers = await rawSocket(http.url, '127.0.0.1', 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaa');
    const body = await rawSocket(http.url, '127.0.0.1', rawPost(http.url, '{"json', {}, 100));
    const trickle = setInterval(() => {
      headers.write('a');
      body.write(' ');
    }, 50);
    const outcomes = await Promise.all([idle, headers, body].map((socket) => untilClosed(socket, 4000)));
    clearInterval(trickle);
    for (const [index, outcome] of outcomes.entries()) {
      assert.ok(outcome.closed, `socket ${index} closed`);
      assert.match(outcome.text, /^HTTP\/1\.1 408/, `socket ${index}: 408`);
    }
  } finally {
    await http.close(100);
  }
});

test('keep-alive: a request a starved client sends late on an idle connection is still served, within idleGraceMs; then the connection closes', async () => {
  // Node closes an idle connection 1 s after idleTimeoutMs (the time it tells the client); the grace keeps it 3 s more
  // (room for a loaded machine's late timers: the request lands at 1.6 s, well inside it).
  const http = await endpoint({ idleTimeoutMs: 200, idleGraceMs: 3000 });
  try {
    const small = rawPost(http.url, callTool('small'), toolHeaders('small'));
    const socket = await rawSocket(http.url, '127.0.0.1', small);
    let first = '';
    socket.on('data', (chunk) => (first += chunk));
    while (!first.includes('"ok"')) await sleep(10);
    await sleep(1600);
    socket.write(small);
    const late = await untilClosed(socket, 8000);
    assert.match(late.text, /^HTTP\/1\.1 200/, "idle 1.6 s: past node's own 1.2 s, inside the grace");
    assert.ok(late.closed, 'idle again past the grace: closed');
  } finally {
    await http.close(100);
  }
});

test("connection caps: past a peer's half of --max-connections, 503 and closed at once; another peer still connects", async () => {
  const http = await endpoint({ maxConnections: 4 });
  const sockets: Socket[] = [];
  try {
    for (let i = 0; i < 2; i++) sockets.push(await rawSocket(http.url, '127.0.0.1'));
    await sleep(50);
    const third = await rawSocket(http.url, '127.0.0.1');
    const outcome = await untilClosed(third, 2000);
    assert.ok(outcome.closed);
    assert.match(outcome.text, /^HTTP\/1\.1 503 Service Unavailable\r\nRetry-After: 1/);
    assert.is((await send(http.url, '127.0.0.2', callTool('small'), toolHeaders('small'))).status, 200);
    sockets.pop()!.destroy();
    await sleep(50);
    assert.is(
      (await send(http.url, '127.0.0.1', callTool('small'), toolHeaders('small'))).status,
      200,
      'a closed one frees its slot',
    );
  } finally {
    for (const socket of sockets) socket.destroy();
    await http.close(100);
  }
});

test('sessions: a quota per peer (429 with Retry-After), another peer still gets one; DELETE frees a slot', async () => {
  const http = await endpoint({ maxSessions: 4 });
  try {
    const body = JSON.stringify(initializeRequest());
    const first = await send(http.url, '127.0.0.1', body);
    assert.is((await send(http.url, '127.0.0.1', body)).status, 200);
    const third = await send(http.url, '127.0.0.1', body);
    assert.equal([third.status, third.headers['retry-after']], [429, '60'], 'half of 4 sessions from one address');
    assert.is(JSON.parse(third.body).id, 0, "the refusal names the initialize's id");
    assert.is((await send(http.url, '127.0.0.2', body)).status, 200, 'another peer');
    const id = first.headers['mcp-session-id'] as string;
    assert.is((await send(http.url, '127.0.0.1', '', { 'Mcp-Session-Id': id }, 'DELETE')).status, 200);
    assert.is((await send(http.url, '127.0.0.1', body)).status, 200, 'the ended session freed its slot');
  } finally {
    await http.close(100);
  }
});

test('sessions expire after their idle time even with a GET stream open', async () => {
  const http = await endpoint({ sessionIdleMs: 200, keepAliveMs: 50 });
  try {
    const opened = await send(http.url, '127.0.0.1', JSON.stringify(initializeRequest()));
    const id = opened.headers['mcp-session-id'] as string;
    await send(http.url, '127.0.0.1', '{"jsonrpc":"2.0","method":"notifications/initialized"}', { 'Mcp-Session-Id': id });
    const stream = await send(http.url, '127.0.0.1', '', { 'Mcp-Session-Id': id, Accept: 'text/event-stream' }, 'GET');
    assert.is(stream.status, 200, 'the GET stream ran until the session ended (send waits for its end)');
    assert.is(http.sessions, 0);
    const after = await send(http.url, '127.0.0.1', '{"jsonrpc":"2.0","id":2,"method":"ping"}', { 'Mcp-Session-Id': id });
    assert.is(after.status, 404, 'the client learns it and initializes again');
    assert.is(JSON.parse(after.body).id, 2, 'the refusal names the request it read');
    const notified = await send(http.url, '127.0.0.1', '{"jsonrpc":"2.0","method":"notifications/initialized"}', {
      'Mcp-Session-Id': id,
    });
    assert.equal([notified.status, JSON.parse(notified.body).id], [404, null], 'a notification has no id to name');
  } finally {
    await http.close(100);
  }
});

test.run();

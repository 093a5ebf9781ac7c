// Resuming SSE streams in the handshake era, as a client sees it: a POST's stream loses its
// connection, the request goes on, and a GET with Last-Event-ID gets what that stream sent
// meanwhile, then the rest of it; the bounds of what is kept, and the status past them
// (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports "Resumability and Redelivery").
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as z from 'zod/mini';
import type { ServerDefinition } from '../definition.js';
import { type HttpEndpoint, type HttpOptions, serveHttp } from '../http.js';
import { type Server, createServer } from '../server.js';
import { type SseEvent, openSession, postMessage, readEvents } from './http-client.js';

/** Opens the gate the `steps` tool waits at. */
let openGate: () => void = () => {};
let cancelled = 0;

const definition = (): ServerDefinition => ({
  info: { name: 'resume-test', version: '1.0.0' },
  tools: [
    {
      name: 'steps',
      description: 'Reports step 1, waits for the gate, reports steps 2 to 5, answers.',
      input: z.object({}),
      async run(_args, context) {
        context.signal.addEventListener('abort', () => (cancelled += 1));
        context.progress(1, 5);
        await new Promise<void>((resolve) => (openGate = resolve));
        for (const step of [2, 3, 4, 5]) context.progress(step, 5);
        return { content: [{ type: 'text', text: 'all steps done' }] };
      },
    },
  ],
  resources: [{ uri: 'test://a', name: 'a', read: () => [{ uri: 'test://a', text: 'A' }] }],
  subscriptions: true,
});

async function endpoint(options: Partial<HttpOptions> = {}): Promise<{ http: HttpEndpoint; server: Server }> {
  const server = createServer(definition());
  const http = await serveHttp(server, { port: 0, report: () => {}, keepAliveMs: 50, ...options });
  return { http, server };
}

const post = (url: string, body: unknown, session?: string) =>
  postMessage(url, body, session ? { 'Mcp-Session-Id': session } : {});
const resume = (url: string, session: string, lastEventId: string) =>
  fetch(url, { headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': session, 'Last-Event-ID': lastEventId } });

const session = openSession;

const steps = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'steps', arguments: {}, _meta: { progressToken: `p${id}` } },
});

/** The first `count` events of a stream, or all of them until it ends. */
const events = (response: Response, count = Infinity) => readEvents(response, (seen) => seen.length >= count);

/** The stream an event id names: `KEY-SEQ`. */
const streamOf = (event: SseEvent) => event.id!.split('-')[0]!;
const shown = (seen: SseEvent[]) => seen.map((event) => `${event.id} ${event.data.method ?? `answer ${event.data.id}`}`);
const settle = (ms = 50) => new Promise((resolve) => setTimeout(resolve, ms));

test('a POST stream that loses its connection: the request goes on; a GET with Last-Event-ID gets the rest, then ends', async () => {
  const { http } = await endpoint();
  try {
    const id = await session(http.url);
    const before = cancelled;
    const first = await events(await post(http.url, steps(1), id), 1);
    const key = streamOf(first[0]!);
    assert.equal(shown(first), [`${key}-1 notifications/progress`], 'ids name the stream (a number per POST), then the event');
    await settle();
    openGate(); // steps 2..5 and the answer, while no connection carries the stream
    await settle();
    assert.is(cancelled, before, 'a dropped connection is not a cancellation');
    const rest = await events(await resume(http.url, id, `${key}-1`));
    assert.equal(shown(rest), [
      `${key}-2 notifications/progress`,
      `${key}-3 notifications/progress`,
      `${key}-4 notifications/progress`,
      `${key}-5 notifications/progress`,
      `${key}-6 answer 1`,
    ]);
    assert.equal(rest[4]!.data.result.content, [{ type: 'text', text: 'all steps done' }]);
    const again = await events(await resume(http.url, id, `${key}-4`));
    assert.equal(
      shown(again),
      [`${key}-5 notifications/progress`, `${key}-6 answer 1`],
      'a finished stream can be resumed again',
    );
    const ended = await resume(http.url, id, `${key}-6`);
    assert.is(ended.status, 204, 'after its last event, a finished stream has nothing more: stop reconnecting');
  } finally {
    await http.close(100);
  }
});

test('resumed while the request still runs: the GET carries the stream on to its answer', async () => {
  const { http } = await endpoint();
  try {
    const id = await session(http.url);
    const key = streamOf((await events(await post(http.url, steps(1), id), 1))[0]!);
    await settle();
    const resumed = await resume(http.url, id, `${key}-1`);
    assert.is(resumed.status, 200);
    assert.is(resumed.headers.get('content-type'), 'text/event-stream');
    openGate();
    assert.equal(shown(await events(resumed)), [
      `${key}-2 notifications/progress`,
      `${key}-3 notifications/progress`,
      `${key}-4 notifications/progress`,
      `${key}-5 notifications/progress`,
      `${key}-6 answer 1`,
    ]);
  } finally {
    await http.close(100);
  }
});

test("a stream's events never reach another stream: nothing of the POST on the GET stream, nothing of the GET stream on a resumed POST", async () => {
  const { http, server } = await endpoint();
  try {
    const id = await session(http.url);
    assert.is(
      (await post(http.url, { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'test://a' } }, id)).status,
      200,
    );
    const getStream = await fetch(http.url, { headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': id } });
    const key = streamOf((await events(await post(http.url, steps(3), id), 1))[0]!);
    await settle();
    server.resourceUpdated('test://a');
    openGate();
    const onGet = await events(getStream, 1);
    assert.equal(shown(onGet), ['0-1 notifications/resources/updated'], 'the GET stream is stream 0');
    const rest = await events(await resume(http.url, id, `${key}-1`));
    assert.ok(
      rest.every((event) => streamOf(event) === key),
      shown(rest).join(', '),
    );
    assert.is(rest.at(-1)!.data.id, 3);
  } finally {
    await http.close(100);
  }
});

test('bounds: past the events kept, a forgotten stream: 410; an id that is not ours, or never sent: 400', async () => {
  const { http } = await endpoint({ replay: { maxEvents: 2, maxStreams: 1 } });
  try {
    const id = await session(http.url);
    const key = streamOf((await events(await post(http.url, steps(1), id), 1))[0]!);
    await settle();
    openGate();
    await settle();
    const gone = await resume(http.url, id, `${key}-1`);
    assert.is(gone.status, 410, 'events 2 to 4 were dropped: the client is told, not given a stream with a hole');
    assert.match(((await gone.json()) as any).error.message, /no longer kept \(the latest 2 events/);
    assert.equal(shown(await events(await resume(http.url, id, `${key}-4`))), [
      `${key}-5 notifications/progress`,
      `${key}-6 answer 1`,
    ]);

    // A second stream: the first, finished and without a connection, is forgotten (at most 1 kept).
    const next = streamOf((await events(await post(http.url, steps(2), id), 1))[0]!);
    await settle();
    const forgotten = await resume(http.url, id, `${key}-4`);
    assert.is(forgotten.status, 410);
    assert.match(((await forgotten.json()) as any).error.message, new RegExp(`stream ${key} is no longer kept`));
    openGate();
    await settle();

    assert.is((await resume(http.url, id, 'banana')).status, 400);
    assert.is((await resume(http.url, id, `${next}-99`)).status, 400, 'never sent');
    assert.is((await resume(http.url, 'no-such-session', `${next}-1`)).status, 404, 'the session is checked first');
  } finally {
    await http.close(100);
  }
});

test('a POST answered with one JSON body has no stream to resume', async () => {
  const { http } = await endpoint();
  try {
    const id = await session(http.url);
    const listed = await post(http.url, { jsonrpc: '2.0', id: 4, method: 'tools/list' }, id);
    assert.is(listed.headers.get('content-type'), 'application/json');
    await listed.json();
    assert.is((await resume(http.url, id, '1-1')).status, 410, 'initialize: stream 1, answered as JSON, not kept');
    assert.is((await resume(http.url, id, '3-1')).status, 410, 'tools/list: the same');
  } finally {
    await http.close(100);
  }
});

/** The raw text of a stream's first chunk. */
async function firstChunk(response: Response): Promise<string> {
  const reader = response.body!.getReader();
  const { value } = await reader.read();
  await reader.cancel();
  return new TextDecoder().decode(value);
}

test('2025-11-25: the GET stream opens with a priming event (an id, no data); resumed from it, the client misses nothing', async () => {
  const { http, server } = await endpoint({ keepAliveMs: 60_000 }); // no keep-alive comment before the first event
  try {
    const id = await session(http.url);
    assert.is(
      (await post(http.url, { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'test://a' } }, id)).status,
      200,
    );
    server.resourceUpdated('test://a'); // before any GET stream: kept as event 0-1
    const getStream = () => fetch(http.url, { headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': id } });
    const cursor = 'id: 0-1\nretry: 1000\ndata:\n\n';
    assert.is(await firstChunk(await getStream()), cursor, 'the cursor: everything up to 0-1 is behind it; reconnect after 1 s');
    await settle();
    server.resourceUpdated('test://a'); // the stream was lost before any message reached it
    await settle();
    assert.equal(shown(await events(await resume(http.url, id, '0-1'), 1)), ['0-2 notifications/resources/updated']);
  } finally {
    await http.close(100);
  }
});

test('2025-11-25: an answer slower than half a second comes on a stream primed with an id and retry; resumed from that id, nothing is missed', async () => {
  const { http } = await endpoint({ keepAliveMs: 60_000 });
  try {
    const id = await session(http.url);
    const quiet = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'steps', arguments: {} } };
    const response = await post(http.url, quiet, id);
    assert.is(response.headers.get('content-type'), 'text/event-stream');
    const chunk = await firstChunk(response); // and the connection is lost
    assert.match(chunk, /^id: \d+-0\nretry: 1000\ndata:\n\n$/);
    const key = /^id: (\d+)-0/.exec(chunk)![1]!;
    openGate();
    await settle();
    assert.equal(shown(await events(await resume(http.url, id, `${key}-0`), 1)), [`${key}-1 answer 7`]);
    // A stream its first message opens is primed with the id before that message's.
    const chunk2 = await firstChunk(await post(http.url, steps(9), id));
    assert.match(chunk2, /^id: (\d+)-0\nretry: 1000\ndata:\n\n/, 'primed before the first message, with an id of its own');
    openGate();
    const quick = await post(http.url, { jsonrpc: '2.0', id: 8, method: 'tools/list' }, id);
    assert.is(quick.headers.get('content-type'), 'application/json', 'a quick answer stays one JSON body');
  } finally {
    await http.close(100);
  }
});

test('2025-06-18: no priming event (an older client might read it as a message)', async () => {
  const { http, server } = await endpoint({ keepAliveMs: 60_000 }); // no keep-alive comment before the first event
  try {
    const id = await session(http.url, '2025-06-18');
    await post(http.url, { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'test://a' } }, id);
    const stream = await fetch(http.url, { headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': id } });
    server.resourceUpdated('test://a');
    assert.match(await firstChunk(stream), /^id: 0-1\nevent: message\ndata: \{/);
  } finally {
    await http.close(100);
  }
});

test.run();

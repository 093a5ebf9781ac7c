// A bare Streamable HTTP client for transport tests, on fetch: POST a message, open a
// handshake-era session, read an SSE stream's events. Each test file keeps its own server.
import * as assert from 'uvu/assert';

export const JSON_AND_SSE = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** POSTs one message (an object is sent as JSON, a string as it is). */
export const postMessage = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { ...JSON_AND_SSE, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

export const initializeRequest = (version = '2025-11-25') => ({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'test', version: '1' } },
});

/** Opens a session: initialize, then notifications/initialized; returns its id. */
export async function openSession(url: string, version = '2025-11-25'): Promise<string> {
  const response = await postMessage(url, initializeRequest(version));
  assert.is(response.status, 200);
  const id = response.headers.get('mcp-session-id');
  assert.ok(
    id && /^([A-Za-z0-9_-]{1,32}\.)?[0-9a-f]{32}$/.test(id),
    `a random session id, after the instance name if any: ${id}`,
  );
  await response.json();
  const initialized = await postMessage(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'Mcp-Session-Id': id });
  assert.is(initialized.status, 202);
  return id;
}

export interface SseEvent {
  id?: string;
  data: any;
}

/** Reads SSE events until `enough` holds (then lets go of the connection) or the stream ends. */
export async function readEvents(response: Response, enough: (seen: SseEvent[]) => boolean): Promise<SseEvent[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const seen: SseEvent[] = [];
  let text = '';
  while (!enough(seen)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = text.indexOf('\n\n')) !== -1) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (data !== undefined) seen.push({ id: /^id: (.*)$/m.exec(block)?.[1], data: JSON.parse(data) });
    }
  }
  await reader.cancel();
  return seen;
}

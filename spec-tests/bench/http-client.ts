// The load driver's side of Streamable HTTP: POSTs of one JSON-RPC message to /mcp on a
// keep-alive agent, no SDK. In the handshake era it opens with `initialize` and sends the
// session id it was given (a server without sessions gives none); in 2026-07-28 every
// request carries its version in `_meta` and the headers that repeat the body
// (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http).
// A response may be a JSON body or an SSE stream; the driver takes the message with its id.

import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { type Era, INITIALIZE, PROTOCOL_VERSION, STATELESS_VERSION, paramsIn } from './workload.js';

export interface HttpSession {
  /** Sends a request; resolves with the response message's text and when it was complete. */
  call(method: string, params?: Record<string, unknown>): Promise<{ text: string; at: number }>;
  close(): void;
}

export async function openHttpSession(port: number, era: Era, window: number): Promise<HttpSession> {
  const agent = new Agent({ keepAlive: true, maxSockets: window });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  let counter = 0;
  const post = (body: string, extra: Record<string, string>) => postMessage(agent, port, body, { ...headers, ...extra });
  if (era === 'handshake') {
    const opened = await post(JSON.stringify({ jsonrpc: '2.0', id: 'init', ...INITIALIZE }), {});
    if (!opened.text.includes('"protocolVersion"')) throw new Error(`HTTP initialize failed: ${opened.text.slice(0, 300)}`);
    if (opened.sessionId) headers['mcp-session-id'] = opened.sessionId;
    headers['mcp-protocol-version'] = PROTOCOL_VERSION;
    await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), {});
  } else {
    headers['mcp-protocol-version'] = STATELESS_VERSION;
  }
  return {
    async call(method, params) {
      const id = `~${++counter}`;
      const stamped = paramsIn(era, params);
      const body = JSON.stringify({ jsonrpc: '2.0', id, method, ...(stamped === undefined ? {} : { params: stamped }) });
      const name = typeof params?.name === 'string' ? params.name : typeof params?.uri === 'string' ? params.uri : undefined;
      const routing: Record<string, string> =
        era === 'stateless' ? { 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) } : {};
      const reply = await post(body, routing);
      return { text: messageWithId(reply.text, id), at: reply.at };
    },
    close: () => agent.destroy(),
  };
}

function postMessage(
  agent: Agent,
  port: number,
  body: string,
  headers: Record<string, string>,
): Promise<{ text: string; at: number; sessionId: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if ((res.statusCode ?? 0) >= 300) return reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 300)}`));
        const session = res.headers['mcp-session-id'];
        resolve({ text, at: performance.now(), sessionId: typeof session === 'string' ? session : undefined });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The message for `id`: the body itself, or the SSE `data:` line that carries it. */
function messageWithId(text: string, id: string): string {
  if (text.startsWith('{')) return text;
  const line = text.split('\n').find((l) => l.startsWith('data:') && l.includes(`"id":"${id}"`));
  if (line === undefined) throw new Error(`no response for ${id} in: ${text.slice(0, 300)}`);
  return line.slice(5).trim();
}

/** Resolves when something accepts connections on the port, or fails after `ms`. */
export async function untilListening(port: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`nothing listens on 127.0.0.1:${port} after ${ms} ms`);
}

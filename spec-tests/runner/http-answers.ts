// Reads the body of one HTTP response from an MCP endpoint into the JSON-RPC messages it
// carries, in arrival order: an `application/json` body is one message (or one batch), a
// `text/event-stream` body one message per event
// (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports "Sending Messages
// to the Server"). What cannot be read as messages is reported, never skipped.
import type { JsonValue } from './json-types.js';
import { SseReader } from './sse-reader.js';

/** The largest JSON body, or SSE event, the runner reads; past it the response is dropped and reported. */
export const MAX_HTTP_MESSAGE_BYTES = 64 * 1024 * 1024;

export type AnswerItem =
  | { kind: 'message'; value: JsonValue }
  | { kind: 'problem'; problem: string }
  | { kind: 'event-id'; id: string }
  | { kind: 'retry'; ms: number };

export function contentTypeOf(response: Response): string {
  return (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Calls `onItem` for each message (or problem) as it arrives; resolves when the body ends. */
export async function readAnswer(response: Response, onItem: (item: AnswerItem) => void): Promise<void> {
  const type = contentTypeOf(response);
  if (type === 'text/event-stream') return readEvents(response, onItem);
  const text = await readBounded(response);
  if (text === undefined) return onItem({ kind: 'problem', problem: `a body larger than ${MAX_HTTP_MESSAGE_BYTES} bytes` });
  if (text.trim() === '') return;
  if (type !== 'application/json')
    return onItem({ kind: 'problem', problem: `a ${type || 'untyped'} body, not application/json: ${excerpt(text)}` });
  onItem(parseMessage(text, 'the JSON body'));
}

async function readEvents(response: Response, onItem: (item: AnswerItem) => void): Promise<void> {
  const reader = new SseReader(MAX_HTTP_MESSAGE_BYTES);
  try {
    for await (const chunk of response.body ?? []) {
      const retryBefore = reader.retryMs;
      const events = reader.push(chunk);
      if (reader.retryMs !== undefined && reader.retryMs !== retryBefore) onItem({ kind: 'retry', ms: reader.retryMs });
      for (const event of events) {
        // MCP sends its messages as `message` events; an event with empty data only primes a resumable stream.
        if (event.id !== undefined) onItem({ kind: 'event-id', id: event.id });
        if (event.type === 'message' && event.data !== '') onItem(parseMessage(event.data, 'an SSE event'));
      }
    }
  } catch (error) {
    if (isAbort(error)) throw error;
    onItem({ kind: 'problem', problem: `the event stream cannot be read: ${(error as Error).message}` });
  }
}

/** The body as UTF-8 text, or undefined past the bound. */
async function readBounded(response: Response): Promise<string | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.length;
    if (size > MAX_HTTP_MESSAGE_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseMessage(text: string, where: string): AnswerItem {
  try {
    return { kind: 'message', value: JSON.parse(text) as JsonValue };
  } catch {
    return { kind: 'problem', problem: `${where} is not JSON: ${excerpt(text)}` };
  }
}

export function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

/** fetch says "fetch failed" and puts the reason (ECONNREFUSED, a reset) in `cause`. */
export function causeOf(error: unknown): string {
  const cause = (error as { cause?: { message?: string } }).cause?.message;
  return cause ?? (error as Error).message;
}

// What every chapter of the tour (tour-chapters.ts) is made of: the Chapter tour.ts runs, the
// server's messages read back from the wire, and the steps chapters share. A chapter concludes
// only from what these read, so the narration cannot disagree with the wire.
import type { WireEvent } from './stdio-client.js';
import type { TourSession } from './tour-session.js';

export interface Chapter {
  name: string;
  title: string;
  intro: string[];
  run(tour: TourSession): Promise<void>;
}

export type Message = Record<string, unknown>;

/** A wire line as an object; a line that is not a JSON object reads as an empty one. */
export function parsed(event: WireEvent): Message {
  try {
    const value = JSON.parse(event.line) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Message) : {};
  } catch {
    return {};
  }
}

export const fromServer = (events: WireEvent[]): Message[] => events.filter((e) => e.direction === 'received').map(parsed);
export const responses = (events: WireEvent[]): Message[] => fromServer(events).filter((m) => 'result' in m || 'error' in m);
export const notifications = (events: WireEvent[], method?: string): Message[] =>
  fromServer(events).filter((m) => !('id' in m) && (method === undefined || m.method === method));
export const resultOf = (events: WireEvent[], index = 0): Message => (responses(events)[index]?.result ?? {}) as Message;
export const errorOf = (events: WireEvent[], index = 0): Message => (responses(events)[index]?.error ?? {}) as Message;
export const names = (items: unknown): string[] =>
  Array.isArray(items) ? items.map((item) => String((item as Message).name)) : [];
/** The id of the last request sent. */
export const lastSentId = (events: WireEvent[]): unknown => parsed(events.filter((e) => e.direction === 'sent').at(-1)!).id;

/** Where a message is in the wire's order. */
export const positionOf = (events: WireEvent[], test: (m: Message) => boolean): number =>
  events.findIndex((e) => e.direction === 'received' && test(parsed(e)));

/** The 2026-07-28 `_meta` a request carries instead of a handshake. */
export const meta2026 = (capabilities: Message = {}) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});

/** A step that sends one request and concludes from what came back. */
export const requestStep = (
  tour: TourSession,
  say: string,
  method: string,
  params?: Message,
  conclude?: (events: WireEvent[]) => string[],
): Promise<WireEvent[]> => tour.step(say, () => tour.client.request(method, params), conclude);

/** What a protocol error said: its code and message. */
export const errorLine = (events: WireEvent[]): string[] => [
  `Error ${String(errorOf(events).code)}: ${String(errorOf(events).message)}`,
];

/** A chapter run on its own opens the session first; in the whole tour, chapter handshake has. */
export async function openSession(tour: TourSession): Promise<void> {
  if (tour.sessionOpen) return;
  tour.sessionOpen = true;
  await tour.step(
    'initialize opens a handshake-era session (chapter handshake explains it): the revision is negotiated once, for the whole connection.',
    () => tour.client.initialize('2025-11-25'),
    (events) => [`Negotiated ${String(resultOf(events).protocolVersion)}.`],
  );
}

// `mcp-tracker demo --tour [CHAPTER]`: a guided session, in chapters (tour-chapters.ts). It
// starts the server as a child process on a fresh data file, as `demo` does, and shows every
// message that crosses the wire, in the order it arrived, each with a sentence or two naming
// the file and function that produced it.
//
// A step says what it is about to do, does it, then shows what was sent and received while it
// ran (nothing is left out, nothing is made up: the messages are the wire's lines, shortened for
// the screen by wire-format.ts) and ends with what the answers show, read from the answers
// themselves, never written in advance.

import { type StdioClient, type WireEvent, spawnStdioClient } from './stdio-client.js';
import { CHAPTERS } from './tour-chapters.js';
import { parsed, type Chapter } from './tour-steps.js';
import type { TourSession } from './tour-session.js';
import { formatMessage } from './wire-format.js';

export interface TourOptions {
  /** The server's script: this same file (the bundle, or lib/main.ts under tsx). */
  serverScript: string;
  /** One chapter by name; all of them when absent. */
  chapter?: string;
  print(line: string): void;
}

/** One step as shown: what was said, and the messages that crossed the wire during it. */
export interface TourStep {
  chapter: string;
  said: string[];
  events: WireEvent[];
  concluded: string[];
}

export interface TourRun {
  exitCode: number;
  steps: TourStep[];
  /** Every line that crossed the wire, in order. */
  wire: WireEvent[];
}

/** What a chapter gets: the client, and `step` to do something and show what happened. */
export const CHAPTER_NAMES = CHAPTERS.map((chapter) => chapter.name);

export async function runTour(options: TourOptions): Promise<TourRun> {
  const chapters = options.chapter === undefined ? CHAPTERS : CHAPTERS.filter((chapter) => chapter.name === options.chapter);
  const wire: WireEvent[] = [];
  const steps: TourStep[] = [];
  if (chapters.length === 0) {
    options.print(`unknown chapter ${options.chapter}; the chapters are: ${CHAPTER_NAMES.join(', ')}`);
    return { exitCode: 2, steps, wire };
  }
  const client = spawnStdioClient(process.execPath, [...process.execArgv, options.serverScript, '--ephemeral'], {
    onWire: (event) => wire.push(event),
  });
  const connection = { sessionOpen: false };
  try {
    for (const [index, chapter] of chapters.entries()) {
      await runChapter(chapter, `${index + 1}/${chapters.length}`, { client, wire, steps, connection, print: options.print });
    }
    return { exitCode: (await client.close()) === 0 ? 0 : 1, steps, wire };
  } catch (error) {
    options.print(`tour failed: ${(error as Error).message}`);
    client.child.kill();
    return { exitCode: 1, steps, wire };
  }
}

interface Parts {
  client: StdioClient;
  wire: WireEvent[];
  steps: TourStep[];
  /** Shared by the chapters of one run: whether the handshake was done. */
  connection: { sessionOpen: boolean };
  print(line: string): void;
}

async function runChapter(chapter: Chapter, position: string, parts: Parts): Promise<void> {
  const { client, wire, steps, connection, print } = parts;
  const heading = `── ${position} ${chapter.name}: ${chapter.title} `;
  print(`\n${heading.padEnd(100, '─')}`);
  for (const line of chapter.intro) print(line);
  const session: TourSession = {
    client,
    get mark() {
      return wire.length;
    },
    wireSince: (from) => wire.slice(from),
    get sessionOpen() {
      return connection.sessionOpen;
    },
    set sessionOpen(open) {
      connection.sessionOpen = open;
    },
    async step(say, action, conclude) {
      const from = wire.length;
      print('');
      print(`▸ ${say}`);
      await action();
      const events = wire.slice(from);
      for (const event of events) printEvent(event, print);
      const concluded = conclude ? conclude(events) : [];
      for (const line of concluded) print(`  ⇒ ${line}`);
      steps.push({ chapter: chapter.name, said: [say], events, concluded });
      return events;
    },
    sendRaw(line) {
      wire.push({ direction: 'sent', line });
      client.writeRaw(`${line}\n`);
    },
    async waitFor(from, match, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (wire.slice(from).some((event) => event.direction === 'received' && match(parsed(event)))) return true;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return false;
    },
  };
  await chapter.run(session);
}

function printEvent(event: WireEvent, print: (line: string) => void): void {
  const arrow = event.direction === 'sent' ? '  client → ' : '  server ← ';
  const [first = '', ...rest] = formatMessage(event.line);
  print(arrow + first);
  for (const line of rest) print(' '.repeat(arrow.length) + line);
}

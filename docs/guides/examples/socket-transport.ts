// The worked example of docs/guides/add-a-transport.md: MCP over a TCP socket, one JSON-RPC message
// per line as on stdio, one connection of the server per socket. Not a transport of the spec
// (those are stdio and Streamable HTTP); a transport of our own, to show the seam
// (protocol/transport.ts) that both of the spec's are built on.

import { type Server as NetServer, type Socket, createServer as createNetServer } from 'node:net';
import { createLineFramer } from '../../../protocol/line-framer.js';
import { createLineWriter } from '../../../protocol/line-writer.js';
import type { Server } from '../../../protocol/server.js';

export interface SocketLimits {
  /** Longest accepted message, in bytes; a longer one is answered with an error and skipped. */
  maxMessageBytes: number;
  /** Requests running at once on one socket before we stop reading it. */
  maxInFlight: number;
  /** Output waiting for a slow reader, in characters, before we stop reading it. */
  maxQueuedBytes: number;
  /** Sockets served at once; one more is closed at once. */
  maxConnections: number;
}

export const DEFAULT_SOCKET_LIMITS: SocketLimits = {
  maxMessageBytes: 1024 * 1024,
  maxInFlight: 16,
  maxQueuedBytes: 4 * 1024 * 1024,
  maxConnections: 32,
};

export function serveSocket(server: Server, limits: SocketLimits = DEFAULT_SOCKET_LIMITS): NetServer {
  const listener = createNetServer((socket) => serveOne(server, socket, limits));
  listener.maxConnections = limits.maxConnections;
  return listener;
}

function serveOne(server: Server, socket: Socket, limits: SocketLimits): void {
  // Output: lines, queued while the peer reads slowly; past the limit `backedUp` turns true.
  const writer = createLineWriter(
    socket,
    { onDrain: () => readOn(), onClosed: () => socket.destroy() },
    { maxQueuedBytes: limits.maxQueuedBytes },
  );

  // The seam: what the engine calls on us. Every message goes down the one socket, so the
  // route (which request a message belongs to) does not matter here; over HTTP it picks the stream.
  const connection = server.connect({
    send: (message) => {
      writer.send(message);
      if (writer.backedUp) holdInput();
    },
    report: (detail) => process.stderr.write(`[socket ${socket.remotePort}] ${detail}\n`),
    // A request finished: there may be room to read again.
    settled: () => readOn(),
  });

  // Input: bytes to lines to the engine, one message at a time, holding between two lines when full.
  const framer = createLineFramer(limits.maxMessageBytes, (frame) => {
    connection.receive(frame);
    if (!hasRoom()) holdInput();
  });
  const hasRoom = (): boolean => connection.inFlight < limits.maxInFlight && !writer.backedUp;

  function holdInput(): void {
    framer.pause();
    socket.pause();
  }
  /** Room again: the lines the framer holds first, then the socket; after its end, the way out. */
  function readOn(): void {
    if (!hasRoom()) return;
    framer.resume();
    if (framer.holding) return;
    if (ended) void finish();
    else socket.resume();
  }

  socket.on('data', (chunk: Buffer) => {
    framer.push(chunk);
    if (framer.holding) socket.pause();
  });
  // The peer is done sending: what it sent is still answered, then the socket is ended.
  let ended = false;
  let finishing = false;
  socket.on('end', () => {
    ended = true;
    framer.end();
    readOn();
  });
  async function finish(): Promise<void> {
    if (finishing) return;
    finishing = true;
    await connection.idle();
    await writer.flush();
    socket.end();
  }
  // Gone, or broken: abort what runs and leave the server (its subscriptions too).
  socket.on('close', () => connection.close());
  socket.on('error', () => socket.destroy());
}

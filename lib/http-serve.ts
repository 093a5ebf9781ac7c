// `mcp-tracker --http`: the tracker's server over Streamable HTTP, with who may call it (one
// bearer token, or a token per user from --users-file) and a graceful stop on SIGTERM/SIGINT.
// The entry of dist/mcp-tracker-http.mjs, loaded only for --http (lib/http-loader.ts), so a
// server on stdio parses neither the transport nor the users file.
import { readFileSync } from 'node:fs';
import { serveHttp } from '../protocol/http.js';
import { isLoopback } from '../protocol/http-access.js';
import type { EncodeLine } from '../protocol/http-stream.js';
import type { Server } from '../protocol/server.js';
import type { CommandLine, HttpAddress } from './cli.js';
import { authenticateUsers, readUsersFile } from './tracker/users-file.js';

export interface TrackerOverHttp {
  server: Server;
  line: CommandLine;
  address: HttpAddress;
  /** Disconnects the tracker and closes the store, once the endpoint is closed. */
  release: () => void;
  report: (line: string) => void;
  /**
   * The engine's encodeLineBytes, from the server's bundle: this bundle carries its own copy of
   * json-rpc.ts, which cannot splice the engine's PreEncoded fragments (protocol/http.ts, HttpOptions.encodeLine).
   */
  encodeLine: EncodeLine;
}

/** Serves until SIGTERM or SIGINT; rejects when a token file cannot be read or the address is in use. */
export async function serveTrackerOverHttp({
  server,
  line,
  address,
  release,
  report,
  encodeLine,
}: TrackerOverHttp): Promise<void> {
  const authToken = line.authTokenFile ? readFileSync(line.authTokenFile, 'utf8').split('\n')[0]!.trim() : undefined;
  if (line.authTokenFile && !authToken) throw new Error(`${line.authTokenFile} holds no token on its first line`);
  // Per-user tokens: each request acts as the user its token names (lib/tracker/users-file.ts).
  const authenticate = line.usersFile ? authenticateUsers(readUsersFile(line.usersFile)) : undefined;
  if (address.explicitHost && !isLoopback(address.host) && !authToken && !authenticate) {
    report(
      `warning: serving ${address.host} without --auth-token-file or --users-file: anyone who can reach this address can use the tracker`,
    );
  }
  const endpoint = await serveHttp(server, {
    host: address.host,
    port: address.port,
    authToken,
    authenticate,
    allowedOrigins: line.allowedOrigins,
    instanceName: line.instanceName,
    maxMessageBytes: line.maxMessageBytes,
    // The same bounds as on stdio, for all clients together (protocol/http-budget.ts).
    maxInFlight: line.maxInFlight,
    maxQueuedBytes: line.maxQueuedBytes,
    maxDepth: line.maxDepth,
    report,
    encodeLine,
  });
  report(`listening on ${endpoint.url}`);
  // SIGTERM / SIGINT: stop accepting, let requests finish for 1.5 s, end streams, exit within 2 s.
  let stopping = false;
  for (const name of ['SIGTERM', 'SIGINT'] as const) {
    process.on(name, () => {
      if (stopping) return;
      stopping = true;
      void endpoint.close(1500).finally(() => {
        release();
        process.exit(0);
      });
    });
  }
}

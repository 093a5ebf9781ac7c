// The handshake era's lifecycle on one connection
// (https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle):
//
//   awaiting-initialize --initialize--> ready --notifications/initialized--> (client initialized)
//
// `initialize` negotiates the revision; from then on the connection's requests without the
// 2026-07-28 `_meta` follow that revision's rules, and the client's declared capabilities
// say what we may ask of it. The stateless era has no lifecycle: each of its requests brings
// its own version and capabilities (stateless.ts), on the same connection, before or after
// this handshake.

import type { InitializeParams, LogLevel } from './schemas.js';
import type { Client } from './context.js';
import { type HandshakeVersion, LATEST_HANDSHAKE_VERSION, type VersionRules, negotiateVersion, rulesFor } from './versions.js';

export interface Handshake {
  /** `initialize` was answered. */
  readonly ready: boolean;
  /** The negotiated revision's rules (the latest until `initialize`). */
  readonly rules: VersionRules;
  readonly client: Client;
  /** notifications/initialized arrived: we may send requests to the client. */
  clientInitialized: boolean;
  /** Unset until logging/setLevel: until then we send no log notifications. */
  logLevel: LogLevel | undefined;
  /** Settles the version and records the client; returns the version we speak. */
  initialize(params: InitializeParams): HandshakeVersion;
}

export function createHandshake(): Handshake {
  return new ConnectionHandshake();
}

// A class, not an object literal with getters: one is made for every connection (session.ts,
// createSession, says why that matters).
class ConnectionHandshake implements Handshake {
  #ready = false;
  #rules = rulesFor(LATEST_HANDSHAKE_VERSION);
  #client: Client = { capabilities: {}, info: { name: 'unknown', version: 'unknown' } };
  clientInitialized = false;
  logLevel: LogLevel | undefined = undefined;

  get ready(): boolean {
    return this.#ready;
  }
  get rules(): VersionRules {
    return this.#rules;
  }
  get client(): Client {
    return this.#client;
  }

  initialize(params: InitializeParams): HandshakeVersion {
    const version = negotiateVersion(params.protocolVersion);
    this.#rules = rulesFor(version);
    this.#client = { capabilities: params.capabilities, info: params.clientInfo };
    this.#ready = true;
    return version;
  }
}

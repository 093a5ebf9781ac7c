// Which fixtures apply to a server, from what detect.ts found: a fixture for a revision the server
// does not offer is not applicable, and says why; the server is not failed for it. A server need
// not speak every revision (https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning).
import type { Detection } from './detect.js';
import type { Fixture } from './fixture-types.js';
import { isJsonObject } from './json-types.js';
import { unmetRequirement } from './requirements-check.js';

const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

/** Why the fixture does not apply to this server, or undefined when it does. */
export function notApplicable(fixture: Fixture, detection: Detection): string | undefined {
  const stdioOnly = detection.transport === 'http' ? stdioOnlyReason(fixture) : undefined;
  if (stdioOnly !== undefined) return `over HTTP: ${stdioOnly}`;
  if (detection.transport === 'stdio' && fixture.steps.some((step) => step.kind === 'http-request'))
    return 'over stdio: it checks the Streamable HTTP transport (http request sections); run it with --url';
  const mode = fixture.header.protocol;
  if (mode.kind === 'handshake') return handshakeOffered(mode.version, detection);
  if (mode.kind === 'stateless') return statelessOffered(mode.version, detection) ?? unmetOnDiscover(fixture, detection);
  const stateless = statelessVersionSent(fixture);
  if (stateless !== undefined) return statelessOffered(stateless, detection);
  // `any`, and `none` fixtures that drive the handshake themselves (or ping before it).
  if (detection.offeredHandshake.length === 0)
    return `the server offers no initialize handshake (${detection.handshake[detection.handshake.length - 1]?.problem ?? 'no answer'})`;
  return undefined;
}

function handshakeOffered(version: string, detection: Detection): string | undefined {
  if (detection.offeredHandshake.includes(version)) return undefined;
  const probe = detection.handshake.find((item) => item.requested === version);
  if (probe?.negotiated !== undefined)
    return `the server does not offer ${version}: asked for it, it answered ${probe.negotiated}`;
  return `the server does not offer ${version}: initialize got ${probe?.problem ?? 'no answer'}`;
}

function statelessOffered(version: string, detection: Detection): string | undefined {
  if (detection.offeredStateless.includes(version)) return undefined;
  if (detection.discover !== undefined) return `the server does not offer ${version}: server/discover does not list it`;
  return `the server does not offer ${version}: server/discover got ${detection.discoverProblem ?? 'no answer'}`;
}

/**
 * A stateless fixture's `requires:` lines, checked against what server/discover answered during
 * detection: a fixture that sends no server/discover of its own would otherwise never check them.
 */
function unmetOnDiscover(fixture: Fixture, detection: Detection): string | undefined {
  if (detection.discover === undefined || fixture.header.requires.length === 0) return undefined;
  return unmetRequirement(fixture.header.requires, detection.discover)?.replace('the initialize result', 'server/discover');
}

/** The 2026-07-28-style version a `protocol: none` fixture's requests carry in `_meta`, if any. */
function statelessVersionSent(fixture: Fixture): string | undefined {
  for (const step of fixture.steps) {
    if (step.kind !== 'send-json') continue;
    for (const { value } of step.messages) {
      const meta = isJsonObject(value) && isJsonObject(value.params) ? value.params._meta : undefined;
      const version = isJsonObject(meta) ? meta[VERSION_KEY] : undefined;
      if (typeof version === 'string') return version;
    }
  }
  return undefined;
}

/**
 * Over HTTP the runner starts no server, so a fixture that needs the server started with
 * arguments of its own (`server-args:`) applies only to a server started with exactly those
 * (--url-server-args), and a fixture without them only to a server started without.
 */
export function otherServerArgs(fixture: Fixture, urlServerArgs: string | undefined): string | undefined {
  const wanted = fixture.header.serverArgs;
  if (wanted === urlServerArgs) return undefined;
  if (wanted === undefined) return `over HTTP: the server was started with ${urlServerArgs}, and this fixture needs it without`;
  return `over HTTP: it needs the server started with ${wanted} (say so with --url-server-args "${wanted}")`;
}

/**
 * Why a fixture can only be played over stdio: it says so (`transport: stdio: REASON`, for
 * behaviour the HTTP transport defines otherwise), or it works on the byte stream or on the
 * process itself.
 */
function stdioOnlyReason(fixture: Fixture): string | undefined {
  if (fixture.header.stdioOnly !== undefined) return fixture.header.stdioOnly;
  if (fixture.steps.some((step) => step.kind === 'send-raw'))
    return 'it sends raw bytes (a client raw section), and each HTTP message is a whole POST body';
  if (fixture.steps.some((step) => step.kind === 'close-stdin' || step.kind === 'exit'))
    return 'it closes stdin or waits for the process to exit, which an HTTP server does not do';
  return undefined;
}

// The project's rules index: every rule of the MCP spec (and of JSON-RPC 2.0) that this project
// checks or deliberately leaves alone, each with a stable id, its RFC 2119 level, one line in our
// own words, and a link to the spec section it comes from. spec-tests/RULES.md is this list
// printed for reading; fixtures cite the ids on their `covers:` lines, code comments as "rule 1.6".
//
// Ids are grouped by topic: 1 JSON-RPC, 2 the handshake lifecycle, 3 the stateless 2026-07-28
// revision, 4 stdio, 5 resources, 6 prompts, 7 tools, 8 requests to the client, 9-13 utilities,
// 14 _meta, 15 newer features, 16 other transports; J1-J15 are the examples of the JSON-RPC 2.0
// specification; M1-M18 are basic probes every MCP server should pass; A-1.. are questions the
// spec leaves open, where the line says our answer (level MAY means the spec allows either).
// Links to a handshake-era page name 2025-11-25 when the rule holds for every revision that
// has the page; a rule of one revision links that revision.
//
// Which fixtures cover a rule is not written here: it is read from the fixtures' own
// `covers:` lines (FORMAT.md), so the two cannot drift apart. spec-tests/tests/requirements.test.ts
// fails when an enforced rule has no fixture, when a fixture covers a rule this list does not
// know, when a rule listed as not covered has gained a fixture, and when RULES.md is stale.
//
//   npx tsx spec-tests/requirements.ts             prints the rules with their fixtures
//   npx tsx spec-tests/requirements.ts --markdown  prints RULES.md
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { findFixtureFiles } from './runner/fixture-files.js';
import { parseFixture } from './runner/fixture-parser.js';

/** RFC 2119: what the spec asks of a server (for A-* rules, MAY: the spec leaves the choice open). */
export type RuleLevel = 'MUST' | 'SHOULD' | 'MAY';

interface RuleBase {
  /** The rule's stable id: `1.3`, `J7`, `M12`, `A-8`. */
  id: string;
  level: RuleLevel;
  /** What the server does, in one line. */
  rule: string;
  /** The link to the spec section (or schema, or RFC) the rule comes from. */
  spec: string;
}

/** A rule the server follows and at least one fixture checks. */
export interface EnforcedRule extends RuleBase {
  enforced: true;
}

/** A rule with no fixture on purpose: out of scope, not implemented, or not observable. */
export interface UncoveredRule extends RuleBase {
  enforced: false;
  reason: string;
}

export type ManifestRule = EnforcedRule | UncoveredRule;

const enforced = (id: string, level: RuleLevel, rule: string, spec: string): EnforcedRule => ({
  id,
  level,
  rule,
  spec,
  enforced: true,
});
const uncovered = (id: string, level: RuleLevel, rule: string, spec: string, reason: string): UncoveredRule => ({
  id,
  level,
  rule,
  spec,
  enforced: false,
  reason,
});

export const MANIFEST: readonly ManifestRule[] = [
  // JSON-RPC base layer
  enforced(
    '1.1',
    'MUST',
    'Every message is a JSON-RPC 2.0 object; params and result are objects; 2026-07-28 results carry resultType.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic',
  ),
  enforced(
    '1.2',
    'MUST',
    'Request ids are strings or integers and are echoed with their exact type and value.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic',
  ),
  enforced(
    '1.3',
    'MUST',
    'Notifications, known or unknown, well-formed or not, are never answered.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic',
  ),
  enforced(
    '1.4',
    'MUST',
    'Every request gets exactly one response with exactly one of result/error; unreadable ids get id null; cancelled requests get none.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic',
  ),
  enforced(
    '1.5',
    'MUST',
    'Error codes follow JSON-RPC: -32700, -32600, -32601, -32602 (bad params, unknown tool/prompt, bad cursor or level), -32603.',
    'https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/schema/2025-11-25/schema.ts',
  ),
  enforced(
    '1.6',
    'MUST',
    'Batches are served with JSON-RPC semantics only in 2025-03-26; elsewhere an array gets one -32600.',
    'https://modelcontextprotocol.io/specification/2025-03-26/basic',
  ),
  enforced(
    '1.7',
    'MUST',
    'Unknown methods get -32601 (methods of undeclared capabilities too, a SHOULD: A-22).',
    'https://modelcontextprotocol.io/specification/2025-03-26/server/utilities/completion',
  ),

  // Lifecycle (handshake era)
  enforced(
    '2.1',
    'MUST',
    'initialize is the first request; before it only ping is served, anything else gets an error.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle',
  ),
  enforced(
    '2.2',
    'MUST',
    'The initialize result has protocolVersion, capabilities and serverInfo {name, version}, plus instructions.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle',
  ),
  enforced(
    '2.3',
    'MUST',
    'A supported version is echoed, an unknown one answered with our latest; the session then follows the negotiated revision.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle',
  ),
  enforced(
    '2.4',
    'MUST',
    'Exactly the capabilities served are declared: tools, resources {subscribe, listChanged}, prompts, logging, completions (2025-03-26 on).',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle',
  ),
  enforced(
    '2.5',
    'MUST',
    'notifications/initialized is not answered; nothing is sent to the client before it but responses.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle',
  ),
  enforced(
    '2.6',
    'MUST',
    'ping is answered with {} at any time in handshake sessions.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping',
  ),
  enforced(
    '2.7',
    'SHOULD',
    'The server exits promptly, with code 0, when its stdin closes.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle',
  ),
  uncovered(
    '2.8',
    'SHOULD',
    'Requests the server sends have a timeout, then a notifications/cancelled.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle',
    'the tracker waits 60 s for an answer, too long for a fixture; protocol/tests/asking.test.ts checks it with a 50 ms timeout',
  ),

  // Stateless era
  enforced(
    '3',
    'MUST',
    '2026-07-28 requests carry version and client capabilities in _meta (-32602 without), unknown versions get -32022, server/discover describes the server.',
    'https://modelcontextprotocol.io/specification/2026-07-28/basic',
  ),

  // stdio
  enforced(
    '4',
    'MUST',
    'One UTF-8 JSON message per newline-terminated line on stdout and nothing else; input framing tolerates splits and CRLF (a BOM and blank lines too, as robustness: the client broke a MUST sending them, so those fixtures are should).',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/transports',
  ),

  // Resources
  enforced(
    '5.1',
    'MUST',
    'resources is declared, with subscribe and listChanged, because both are implemented.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/resources',
  ),
  enforced(
    '5.2',
    'MUST',
    'resources/list lists the fixed resources and one per issue, with name, title (2025-06-18 on), mimeType and annotations, paginated.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/resources',
  ),
  enforced(
    '5.3',
    'SHOULD',
    'resources/read returns one text item per URI with its mimeType; unknown URIs get -32002 with data.uri (-32602 in 2026-07-28), never empty contents.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/resources',
  ),
  enforced(
    '5.4',
    'MUST',
    'resources/templates/list lists the four URI templates, and read accepts every concrete URI they expand to.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/resources',
  ),
  enforced(
    '5.5',
    'MUST',
    'After subscribe, notifications/resources/updated is sent for a subscribed URI exactly when its content changed, and never after unsubscribe.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/resources',
  ),
  enforced(
    '5.6',
    'SHOULD',
    'Creating an issue sends notifications/resources/list_changed.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/resources',
  ),
  enforced(
    '5.7',
    'MAY',
    'Annotations carry audience and priority, and lastModified from 2025-06-18.',
    'https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/schema/2025-11-25/schema.ts',
  ),
  uncovered(
    '5.8',
    'MUST',
    'URIs use a custom RFC 3986 scheme and are validated; access control and traversal checks apply.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/resources',
    'jira:// is a custom scheme with no file paths and a single user, so traversal and access control have nothing to show on the wire; URI validation itself is checked under 5.3',
  ),

  // Prompts
  enforced(
    '6',
    'MUST',
    'prompts/list and prompts/get: multi-turn messages, one content block each, embedded resources with mimeType; unknown prompt or missing argument -32602.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/prompts',
  ),

  // Tools
  enforced(
    '7.1',
    'MUST',
    'tools is declared and tools/list returns every tool with name, description, inputSchema, and title from 2025-06-18.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/tools',
  ),
  enforced(
    '7.2',
    'SHOULD',
    'Tool names are 1-128 characters of A-Z a-z 0-9 _ - . and case-sensitive.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/tools',
  ),
  enforced(
    '7.3',
    'MUST',
    'inputSchema and outputSchema are objects with type object at the root.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/tools',
  ),
  enforced(
    '7.4',
    'MUST',
    'tools/call returns content (text only before 2025-06-18; structuredContent, its text copy and resource_link after); tool failures are isError results, unknown tools -32602.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/tools',
  ),
  enforced(
    '7.5',
    'SHOULD',
    'Tool annotations (2025-03-26 on) are honest: read-only, destructive, idempotent and closed-world hints per tool.',
    'https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/schema/2025-11-25/schema.ts',
  ),
  enforced(
    '7.6',
    'MUST',
    'tools.listChanged is not declared because the tool set never changes.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/tools',
  ),

  enforced(
    '8',
    'MUST',
    'Server-initiated requests (sampling, roots, elicitation) only for declared client capabilities, with fresh ids.',
    'https://modelcontextprotocol.io/specification/2025-11-25/client',
  ),

  // Utilities
  enforced(
    '9',
    'MUST',
    'completion/complete suggests issue keys, project keys, statuses, priorities, assignees and sprint ids, narrowed by context.arguments from 2025-06-18; unknown refs -32602.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion',
  ),
  enforced(
    '10',
    'MUST',
    'logging/setLevel sets the threshold; changes are then logged as notifications/message; nothing before setLevel; invalid level -32602.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging',
  ),
  enforced(
    '11',
    'SHOULD',
    'Lists paginate with an opaque cursor, no nextCursor on the last page, -32602 for a cursor not issued or past the end.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination',
  ),
  enforced(
    '12',
    'MUST',
    'Progress only with a progressToken, echoed with its type, strictly increasing, with message from 2025-03-26.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress',
  ),
  enforced(
    '13',
    'SHOULD',
    'A cancelled request gets no response; cancels for unknown or finished requests are ignored silently.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation',
  ),

  uncovered(
    '14',
    'MUST',
    '_meta keys follow the prefix rules and reserved keys are not assumed.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic',
    'the tracker adds no _meta keys of its own; the spec-defined ones it sends in 2026-07-28 are checked under 1.4 and 3',
  ),

  // Newer features
  enforced(
    '15.1',
    'MUST',
    'Without the tasks capability, task-augmented requests are processed normally, ignoring params.task.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks',
  ),
  enforced(
    '15.2',
    'MAY',
    '2026-07-28 tools/call may answer input_required with an elicitation form and a sealed requestState, completed by a retry.',
    'https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr',
  ),
  enforced(
    '15.3',
    'SHOULD',
    '2026-07-28 list and read results carry ttlMs and cacheScope.',
    'https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching',
  ),
  enforced(
    '15.4',
    'MUST',
    'subscriptions/listen is acknowledged, tags its notifications with the subscriptionId, and ends on cancel.',
    'https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions',
  ),
  uncovered(
    '15.5',
    'MAY',
    'Icons on serverInfo, tools, prompts, resources.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic',
    'the tracker has no icons (a MAY)',
  ),
  enforced(
    '15.6',
    'MUST',
    'Elicitation forms ask only for flat primitive fields, and only when the client can answer them.',
    'https://modelcontextprotocol.io/specification/2026-07-28/client/elicitation',
  ),
  uncovered(
    '15.7',
    'MUST',
    'Sampling with tools only for clients that declared it.',
    'https://modelcontextprotocol.io/specification/2025-11-25/client/sampling',
    'the tracker samples without tools, so there is nothing to observe',
  ),
  uncovered(
    '15.8',
    'MUST',
    'roots/list only for clients that declared roots.',
    'https://modelcontextprotocol.io/specification/2025-11-25/client/roots',
    'the tracker never asks for roots',
  ),
  uncovered(
    '15.9',
    'MAY',
    'Deprecated features in 2026-07-28.',
    'https://modelcontextprotocol.io/specification/2026-07-28/deprecated',
    'a list of deprecations, no behaviour of its own',
  ),
  enforced(
    '15.10',
    'MUST',
    'The 2026-07-28 tasks extension: only a request that declares it gets a CreateTaskResult or may call tasks/get, tasks/update, tasks/cancel (-32021 otherwise); tasks/result and tasks/list do not exist.',
    'https://modelcontextprotocol.io/seps/2663-tasks-extension',
  ),
  enforced(
    '15.11',
    'MUST',
    'A CreateTaskResult is flat (resultType "task", taskId, status, createdAt, lastUpdatedAt, ttlMs) and the task is held before it is sent; tasks/get inlines the result once completed; an unknown taskId is -32602.',
    'https://modelcontextprotocol.io/seps/2663-tasks-extension',
  ),
  enforced(
    '15.12',
    'MUST',
    'tasks/cancel and tasks/update are acknowledged with an empty result (resultType "complete").',
    'https://modelcontextprotocol.io/seps/2663-tasks-extension',
  ),
  enforced(
    '16',
    'MAY',
    'Streamable HTTP transport: a POST holding a request is answered as application/json or text/event-stream.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/transports',
  ),
  enforced(
    '16.1',
    'MUST',
    'A foreign Origin is refused (2025-11-25 and 2026-07-28: with 403 Forbidden).',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/transports',
  ),
  enforced(
    '16.2',
    'MUST',
    'A POST of notifications only is answered 202 Accepted with no body, or an HTTP error status.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/transports',
  ),
  enforced(
    '16.3',
    'MUST',
    'A GET opens an event stream or is answered 405 Method Not Allowed.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/transports',
  ),
  enforced(
    '16.4',
    'MUST',
    'A session id holds only visible ASCII (0x21-0x7E).',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/transports',
  ),
  enforced(
    '16.5',
    'MUST',
    'A request with the id of a terminated session is answered 404 Not Found.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/transports',
  ),
  enforced(
    '16.6',
    'SHOULD',
    'A server that requires a session id answers a request without it 400 Bad Request.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/transports',
  ),
  enforced(
    '16.7',
    'MUST',
    'An unsupported MCP-Protocol-Version header is answered 400 Bad Request (2025-06-18 on).',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/transports',
  ),
  enforced(
    '16.8',
    'MUST',
    '2026-07-28: headers that do not match the body: 400 and HeaderMismatch (-32020); an unsupported version: 400 and -32022; an unknown method: 404 and -32601.',
    'https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http',
  ),
  enforced(
    '16.9',
    'SHOULD',
    'A foreign Host without Origin (a DNS rebinding page) is refused with a 4xx: the page names Origin only, and local servers SHOULD bind to localhost.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/transports',
  ),
  enforced(
    '16.10',
    'MAY',
    'A stream resumed with Last-Event-ID replays only what came after that event, on that stream; refusing to resume with a 4xx is allowed.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/transports',
  ),

  // Ambiguities: the choices we made
  uncovered(
    'A-1',
    'MAY',
    'Which revision is latest.',
    'https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning',
    'a product decision (we serve both eras), no behaviour of its own',
  ),
  enforced(
    'A-3',
    'MUST',
    'Errors whose request id cannot be read carry id null.',
    'https://www.jsonrpc.org/specification#response_object',
  ),
  enforced(
    'A-4',
    'MAY',
    'Outside 2025-03-26 a batch gets one -32600 with id null.',
    'https://modelcontextprotocol.io/specification/2025-06-18/changelog',
  ),
  enforced(
    'A-5',
    'MUST',
    'An unsupported protocolVersion in initialize gets a result with our latest version, not an error.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle',
  ),
  enforced(
    'A-6',
    'MAY',
    'Requests before initialize (other than ping) and a second initialize get -32600.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle',
  ),
  enforced(
    'A-7',
    'SHOULD',
    'No requests to the client before it sends notifications/initialized: a tool that would ask reports that it could not.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle',
  ),
  enforced(
    'A-8',
    'MAY',
    "Arguments failing a tool's inputSchema give an isError result in every revision.",
    'https://modelcontextprotocol.io/specification/2025-11-25/server/tools',
  ),
  enforced(
    'A-9',
    'MUST',
    'structuredContent is on every successful call of a tool with an outputSchema and absent on isError results.',
    'https://modelcontextprotocol.io/specification/2025-06-18/server/tools',
  ),
  uncovered(
    'A-10',
    'MAY',
    'Tasks error codes.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks',
    'tasks are not implemented',
  ),
  enforced(
    'A-11',
    'MAY',
    'JSON Schema dialect: before 2025-11-25 (unspecified) draft-07 without $schema; from 2025-11-25 $schema names 2020-12.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic',
  ),
  enforced(
    'A-12',
    'MAY',
    'resources/templates/list is paginated in 2025-11-25 too.',
    'https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/schema/2025-11-25/schema.ts',
  ),
  enforced(
    'A-13',
    'MAY',
    'Embedded resources in prompts always carry mimeType.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/prompts',
  ),
  enforced(
    'A-14',
    'MAY',
    'Prompts are multi-turn, with assistant turns between user turns.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/prompts',
  ),
  uncovered(
    'A-15',
    'MAY',
    'Reserved _meta prefixes differ between 2025-06-18 and 2025-11-25.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic',
    'the tracker defines no _meta keys of its own',
  ),
  enforced(
    'A-16',
    'MAY',
    'instructions are sent in 2024-11-05 too (the schema has them).',
    'https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/schema/2024-11-05/schema.ts',
  ),
  enforced(
    'A-17',
    'MAY',
    'On shutdown the server ends each open listen stream with its success result, tagged with the subscriptionId.',
    'https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions',
  ),
  enforced(
    'A-18',
    'MUST',
    'After a cancel nothing more is sent for that request.',
    'https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio',
  ),
  uncovered(
    'A-19',
    'MUST',
    'Progress stops before the response is written.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress',
    'the runner cannot order a notification against a response (responses pair by id, notifications by method); the engine enforces it and its uvu tests check it',
  ),
  enforced(
    'A-20',
    'MAY',
    'URI templates are level 1 plus one form-style query expansion, and concrete URIs match back to them.',
    'https://www.rfc-editor.org/rfc/rfc6570',
  ),
  enforced(
    'A-21',
    'MAY',
    'No notifications/message before logging/setLevel.',
    'https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/schema/2025-11-25/schema.ts',
  ),
  enforced(
    'A-22',
    'SHOULD',
    'Methods of undeclared capabilities get -32601: only the completion page names a code, and it says SHOULD.',
    'https://modelcontextprotocol.io/specification/2025-03-26/server/utilities/completion',
  ),
  enforced(
    'A-23',
    'SHOULD',
    'Timestamps are RFC 3339 UTC.',
    'https://modelcontextprotocol.io/specification/2025-06-18/server/resources',
  ),
  enforced(
    'A-24',
    'SHOULD',
    'Resource not found is -32002 in handshake sessions and -32602 in 2026-07-28.',
    'https://modelcontextprotocol.io/specification/2026-07-28/basic',
  ),
  uncovered(
    'A-25',
    'MAY',
    'Ids the server generates are integers.',
    'https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/schema/2025-11-25/schema.ts',
    'a fixture captures the id of a request to the client as any value; protocol/tests/session.test.ts checks that it is a number',
  ),
  enforced(
    'A-26',
    'MAY',
    'A dual-era server chooses the era per request: 2026-07-28 _meta is served statelessly at any time, and initialize stays open after stateless requests.',
    'https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#backward-compatibility-with-initialization-based-versions',
  ),
  // Robustness: the client broke a rule first, and the spec does not say what the server does.
  // Our answer: refuse what is not a message, never crash or go silent over it.
  enforced(
    'A-27',
    'SHOULD',
    'A request whose "jsonrpc" is not "2.0" gets an error (-32600), not a result.',
    'https://www.jsonrpc.org/specification#request_object',
  ),
  enforced(
    'A-28',
    'SHOULD',
    'A request with a null or fractional id gets an error (-32600), not a result.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic',
  ),
  enforced(
    'A-29',
    'SHOULD',
    'A request whose params is a string gets an error (-32600 or -32602), not a result.',
    'https://www.jsonrpc.org/specification#parameter_structures',
  ),
  enforced(
    'A-30',
    'SHOULD',
    'A line longer than the server reads is served or refused with an error, never dropped silently, and the session goes on.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/transports',
  ),
  enforced(
    'A-31',
    'SHOULD',
    'A request id reused while the first is in flight does not crash the server or stop it serving.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic',
  ),
  uncovered(
    'A-32',
    'SHOULD',
    'SIGTERM ends a stdio server promptly (the client sends it when closing stdin did not, then SIGKILL).',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle',
    'the fixture format has no step that sends a signal (the runner ends every server with SIGTERM, then SIGKILL after 500 ms, without grading it); spec-tests/tests/http-clients.test.ts checks that our HTTP server exits 0 on SIGTERM',
  ),

  enforced(
    'A-33',
    'MAY',
    'Which calls become tasks, how many and for how long are held, when a cancel takes effect: ours, every call of a task-capable tool from a declaring request; 1000 tasks, 30 minutes; at once, progress kept as statusMessage.',
    'https://modelcontextprotocol.io/seps/2663-tasks-extension',
  ),

  // JSON-RPC examples and MCP probes
  enforced(
    'J1',
    'MUST',
    'Positional params on an unknown method: -32601 with id 1.',
    'https://www.jsonrpc.org/specification#examples',
  ),
  enforced('J2', 'MUST', 'Positional params, reversed: -32601 with id 2.', 'https://www.jsonrpc.org/specification#examples'),
  enforced(
    'J3',
    'MUST',
    'Named params on an unknown method: -32601 with id 3.',
    'https://www.jsonrpc.org/specification#examples',
  ),
  enforced('J4', 'MUST', 'Named params reordered: -32601 with id 4.', 'https://www.jsonrpc.org/specification#examples'),
  enforced('J5', 'MUST', 'A notification with params is not answered.', 'https://www.jsonrpc.org/specification#examples'),
  enforced('J6', 'MUST', 'A notification without params is not answered.', 'https://www.jsonrpc.org/specification#examples'),
  enforced(
    'J7',
    'MUST',
    'An unknown method with a string id: -32601, id echoed as a string.',
    'https://www.jsonrpc.org/specification#examples',
  ),
  enforced(
    'J8',
    'MUST',
    'Invalid JSON: -32700 with id null, and the reader goes on.',
    'https://www.jsonrpc.org/specification#examples',
  ),
  enforced('J9', 'MUST', 'A non-request object: -32600 with id null.', 'https://www.jsonrpc.org/specification#examples'),
  enforced('J10', 'MUST', 'A batch with invalid JSON: a single -32700.', 'https://www.jsonrpc.org/specification#examples'),
  enforced('J11', 'MUST', 'An empty array: a single -32600.', 'https://www.jsonrpc.org/specification#examples'),
  enforced(
    'J12',
    'MUST',
    '[1]: an array of one -32600 in 2025-03-26, a single -32600 elsewhere.',
    'https://www.jsonrpc.org/specification#examples',
  ),
  enforced(
    'J13',
    'MUST',
    '[1,2,3]: three -32600 in 2025-03-26, a single -32600 elsewhere.',
    'https://www.jsonrpc.org/specification#examples',
  ),
  enforced(
    'J14',
    'MUST',
    'A mixed batch: one response per request, none for notifications, in 2025-03-26.',
    'https://www.jsonrpc.org/specification#examples',
  ),
  enforced(
    'J15',
    'MUST',
    'An all-notification batch: no output in 2025-03-26.',
    'https://www.jsonrpc.org/specification#examples',
  ),
  enforced(
    'M1',
    'MUST',
    'initialize with a supported version is answered with that version.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle',
  ),
  enforced(
    'M2',
    'MUST',
    'initialize with an unknown version is answered with our latest, as a result.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle',
  ),
  enforced(
    'M3',
    'MUST',
    'notifications/initialized is not answered.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle',
  ),
  enforced(
    'M4',
    'MUST',
    'ping gets {} before and after initialize.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping',
  ),
  enforced(
    'M5',
    'MUST',
    'tools/call of an unknown tool: -32602.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/tools',
  ),
  enforced(
    'M6',
    'SHOULD',
    'tools/call with arguments failing the inputSchema: an isError result.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/tools',
  ),
  enforced(
    'M7',
    'MUST',
    'A tool whose work throws (a domain error) gives an isError result, not a JSON-RPC error.',
    'https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/schema/2025-11-25/schema.ts',
  ),
  enforced(
    'M8',
    'SHOULD',
    'prompts/get of an unknown prompt or without a required argument: -32602.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/prompts',
  ),
  enforced(
    'M9',
    'SHOULD',
    'resources/read of an unknown URI: -32002 (-32602 in 2026-07-28), never empty contents.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/resources',
  ),
  enforced(
    'M10',
    'SHOULD',
    'A cursor the server never issued: -32602.',
    'https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination',
  ),
  enforced(
    'M11',
    'SHOULD',
    'notifications/cancelled for an unknown id is ignored.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation',
  ),
  enforced(
    'M12',
    'MUST',
    'A progressToken on a slow tool gives strictly increasing notifications/progress.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress',
  ),
  enforced(
    'M13',
    'SHOULD',
    'A method of an undeclared capability: -32601.',
    'https://modelcontextprotocol.io/specification/2025-03-26/server/utilities/completion',
  ),
  enforced(
    'M14',
    'MUST',
    'A 2026-07-28 request without the required _meta: -32602.',
    'https://modelcontextprotocol.io/specification/2026-07-28/basic',
  ),
  enforced(
    'M15',
    'MUST',
    'A 2026-07-28 request with an unknown version: -32022 with supported and requested.',
    'https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning',
  ),
  enforced(
    'M16',
    'MUST',
    'server/discover: resultType, supportedVersions, capabilities, ttlMs, cacheScope.',
    'https://modelcontextprotocol.io/specification/2026-07-28/server/discover',
  ),
  enforced(
    'M17',
    'MUST',
    'stdout carries only JSON-RPC lines.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/transports',
  ),
  enforced(
    'M18',
    'SHOULD',
    'Closing stdin makes the server exit promptly with code 0.',
    'https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle',
  ),
];

/** Rule id -> names of the fixtures whose `covers:` line names it, read from the fixture files. */
export function fixturesByRule(fixtureRoot = 'spec-tests/fixtures'): Map<string, string[]> {
  const byRule = new Map<string, string[]>();
  for (const file of findFixtureFiles([fixtureRoot])) {
    const fixture = parseFixture(readFileSync(file.path, 'utf8'), file.path, file.name);
    for (const id of fixture.header.covers) byRule.set(id, [...(byRule.get(id) ?? []), file.name]);
  }
  return byRule;
}

/** The manifest as text, each rule followed by its fixtures or the reason it has none. */
export function describeManifest(byRule: Map<string, string[]> = fixturesByRule()): string {
  return MANIFEST.map((rule) => {
    const head = `${rule.id.padEnd(5)} ${rule.level.padEnd(6)} ${rule.rule}\n      ${rule.spec}`;
    if (!rule.enforced) return `${head}\n      not covered: ${rule.reason}`;
    return [head, ...(byRule.get(rule.id) ?? ['(no fixture!)']).map((name) => `      - ${name}`)].join('\n');
  }).join('\n');
}

/** spec-tests/RULES.md: the manifest for reading, one paragraph per rule. */
export function rulesMarkdown(byRule: Map<string, string[]> = fixturesByRule()): string {
  const intro = [
    '# The rules mcp-by-hand checks',
    '',
    'Generated from `spec-tests/requirements.ts` by `npx tsx spec-tests/requirements.ts --markdown`;',
    'a test fails when this file is stale. Each rule: its stable id, its level (RFC 2119, as the spec',
    'asks it of a server), one line in our own words, the spec section it comes from, and the fixtures',
    'that check it (or why none does). Fixtures cite the ids on their `covers:` lines, code comments',
    'as "rule 1.6". Ids: 1-16 by topic, J = the JSON-RPC 2.0 examples, M = basic MCP probes,',
    'A = questions the spec leaves open, with our answer.',
    '',
  ];
  const rules = MANIFEST.map((rule) => {
    const checkedBy = rule.enforced
      ? `Checked by: ${(byRule.get(rule.id) ?? []).map((name) => `\`${name}\``).join(', ')}.`
      : `Not checked by a fixture: ${rule.reason}.`;
    return `**${rule.id}** (${rule.level}) ${rule.rule}  \nSource: <${rule.spec}>  \n${checkedBy}\n`;
  });
  return [...intro, ...rules].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(process.argv.includes('--markdown') ? rulesMarkdown() : describeManifest());
}

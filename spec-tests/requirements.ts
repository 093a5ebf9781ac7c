// The requirements manifest: which rules of REQUIREMENTS.md (../shared/spec) this project
// enforces, each with one line of behaviour and the spec page it comes from, and which rules
// it deliberately leaves without a fixture, with the reason.
//
// Which fixtures cover a rule is not written here: it is read from the fixtures' own
// `covers:` lines (FORMAT.md), so the two cannot drift apart. spec-tests/tests/requirements.test.ts
// fails when an enforced rule has no fixture, when a fixture covers a rule this list does not
// know, and when a rule listed as not covered has gained a fixture.
//
//   npx tsx spec-tests/requirements.ts      prints the manifest with the covering fixtures
//
// Paths: `S/` = docs/specification/ in the spec repository, `{v}` = every revision that has the
// rule (REQUIREMENTS.md §0).
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { findFixtureFiles } from './runner/fixture-files.js';
import { parseFixture } from './runner/fixture-parser.js';

interface RuleBase {
  /** The section or row id in REQUIREMENTS.md: `1.3`, `J7`, `M12`, `A-8`. */
  id: string;
  /** What the server does, in one line. */
  rule: string;
  /** The spec page (or schema) the rule comes from. */
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

const enforced = (id: string, rule: string, spec: string): EnforcedRule => ({ id, rule, spec, enforced: true });
const uncovered = (id: string, rule: string, spec: string, reason: string): UncoveredRule => ({
  id,
  rule,
  spec,
  enforced: false,
  reason,
});

const NO_SERVER_REQUESTS =
  'the tracker sends no requests to the client in handshake sessions (2026-07-28 asks through MRTR results instead), so there is nothing to observe';

export const MANIFEST: readonly ManifestRule[] = [
  // §1 JSON-RPC base layer
  enforced(
    '1.1',
    'Every message is a JSON-RPC 2.0 object; params and result are objects; 2026-07-28 results carry resultType.',
    'S/{v}/basic/index.mdx',
  ),
  enforced('1.2', 'Request ids are strings or integers and are echoed with their exact type and value.', 'S/{v}/basic/index.mdx'),
  enforced('1.3', 'Notifications, known or unknown, well-formed or not, are never answered.', 'S/{v}/basic/index.mdx'),
  enforced(
    '1.4',
    'Every request gets exactly one response with exactly one of result/error; unreadable ids get id null; cancelled requests get none.',
    'S/{v}/basic/index.mdx',
  ),
  enforced(
    '1.5',
    'Error codes follow JSON-RPC: -32700, -32600, -32601, -32602 (bad params, unknown tool/prompt, bad cursor or level), -32603.',
    'schema/{v}/schema.ts',
  ),
  enforced(
    '1.6',
    'Batches are served with JSON-RPC semantics only in 2025-03-26; elsewhere an array gets one -32600.',
    'S/2025-03-26/basic/index.mdx',
  ),
  enforced(
    '1.7',
    'Unknown methods, and methods of undeclared capabilities, get -32601.',
    'S/2025-03-26/server/utilities/completion.mdx',
  ),

  // §2 Lifecycle (handshake era)
  enforced(
    '2.1',
    'initialize is the first request; before it only ping is served, anything else gets an error.',
    'S/{v}/basic/lifecycle.mdx',
  ),
  enforced(
    '2.2',
    'The initialize result has protocolVersion, capabilities and serverInfo {name, version}, plus instructions.',
    'S/{v}/basic/lifecycle.mdx',
  ),
  enforced(
    '2.3',
    'A supported version is echoed, an unknown one answered with our latest; the session then follows the negotiated revision.',
    'S/{v}/basic/lifecycle.mdx',
  ),
  enforced(
    '2.4',
    'Exactly the capabilities served are declared: tools, resources {subscribe, listChanged}, prompts, logging, completions (2025-03-26 on).',
    'S/{v}/basic/lifecycle.mdx',
  ),
  enforced(
    '2.5',
    'notifications/initialized is not answered; nothing is sent to the client before it but responses.',
    'S/{v}/basic/lifecycle.mdx',
  ),
  enforced('2.6', 'ping is answered with {} at any time in handshake sessions.', 'S/{v}/basic/utilities/ping.mdx'),
  enforced('2.7', 'The server exits promptly, with code 0, when its stdin closes.', 'S/{v}/basic/lifecycle.mdx'),
  uncovered(
    '2.8',
    'Requests the server sends have a timeout, then a notifications/cancelled.',
    'S/{v}/basic/lifecycle.mdx',
    NO_SERVER_REQUESTS,
  ),

  // §3 Stateless era
  enforced(
    '3',
    '2026-07-28 requests carry version and client capabilities in _meta (-32602 without), unknown versions get -32022, server/discover describes the server.',
    'S/2026-07-28/basic/index.mdx',
  ),

  // §4 stdio
  enforced(
    '4',
    'One UTF-8 JSON message per newline-terminated line on stdout and nothing else; input framing tolerates splits, CRLF, BOM and blank lines.',
    'S/{v}/basic/transports.mdx',
  ),

  // §5 Resources
  enforced(
    '5.1',
    'resources is declared, with subscribe and listChanged, because both are implemented.',
    'S/{v}/server/resources.mdx',
  ),
  enforced(
    '5.2',
    'resources/list lists the fixed resources and one per issue, with name, title (2025-06-18 on), mimeType and annotations, paginated.',
    'S/{v}/server/resources.mdx',
  ),
  enforced(
    '5.3',
    'resources/read returns one text item per URI with its mimeType; unknown URIs get -32002 with data.uri (-32602 in 2026-07-28), never empty contents.',
    'S/{v}/server/resources.mdx',
  ),
  enforced(
    '5.4',
    'resources/templates/list lists the four URI templates, and read accepts every concrete URI they expand to.',
    'S/{v}/server/resources.mdx',
  ),
  enforced(
    '5.5',
    'After subscribe, notifications/resources/updated is sent for a subscribed URI exactly when its content changed, and never after unsubscribe.',
    'S/{v}/server/resources.mdx',
  ),
  enforced('5.6', 'Creating an issue sends notifications/resources/list_changed.', 'S/{v}/server/resources.mdx'),
  enforced('5.7', 'Annotations carry audience and priority, and lastModified from 2025-06-18.', 'schema/{v}/schema.ts'),
  uncovered(
    '5.8',
    'URIs use a custom RFC 3986 scheme and are validated; access control and traversal checks apply.',
    'S/{v}/server/resources.mdx',
    'jira:// is a custom scheme with no file paths and a single user, so traversal and access control have nothing to show on the wire; URI validation itself is checked under 5.3',
  ),

  // §6 Prompts
  enforced(
    '6',
    'prompts/list and prompts/get: multi-turn messages, one content block each, embedded resources with mimeType; unknown prompt or missing argument -32602.',
    'S/{v}/server/prompts.mdx',
  ),

  // §7 Tools
  enforced(
    '7.1',
    'tools is declared and tools/list returns every tool with name, description, inputSchema, and title from 2025-06-18.',
    'S/{v}/server/tools.mdx',
  ),
  enforced('7.2', 'Tool names are 1-128 characters of A-Z a-z 0-9 _ - . and case-sensitive.', 'S/2025-11-25/server/tools.mdx'),
  enforced('7.3', 'inputSchema and outputSchema are objects with type object at the root.', 'S/{v}/server/tools.mdx'),
  enforced(
    '7.4',
    'tools/call returns content (text only before 2025-06-18; structuredContent, its text copy and resource_link after); tool failures are isError results, unknown tools -32602.',
    'S/{v}/server/tools.mdx',
  ),
  enforced(
    '7.5',
    'Tool annotations (2025-03-26 on) are honest: read-only, destructive, idempotent and closed-world hints per tool.',
    'schema/{v}/schema.ts',
  ),
  enforced('7.6', 'tools.listChanged is not declared because the tool set never changes.', 'S/{v}/server/tools.mdx'),

  uncovered(
    '8',
    'Server-initiated requests (sampling, roots, elicitation) only for declared client capabilities, with fresh ids.',
    'S/{v}/client/*.mdx',
    NO_SERVER_REQUESTS,
  ),

  // §9-13 Utilities
  enforced(
    '9',
    'completion/complete suggests issue keys, project keys, statuses, priorities, assignees and sprint ids, narrowed by context.arguments from 2025-06-18; unknown refs -32602.',
    'S/{v}/server/utilities/completion.mdx',
  ),
  enforced(
    '10',
    'logging/setLevel sets the threshold; changes are then logged as notifications/message; nothing before setLevel; invalid level -32602.',
    'S/{v}/server/utilities/logging.mdx',
  ),
  enforced(
    '11',
    'Lists paginate with an opaque cursor, no nextCursor on the last page, -32602 for a cursor not issued or past the end.',
    'S/{v}/server/utilities/pagination.mdx',
  ),
  enforced(
    '12',
    'Progress only with a progressToken, echoed with its type, strictly increasing, with message from 2025-03-26.',
    'S/{v}/basic/utilities/progress.mdx',
  ),
  enforced(
    '13',
    'A cancelled request gets no response; cancels for unknown or finished requests are ignored silently.',
    'S/{v}/basic/utilities/cancellation.mdx',
  ),

  uncovered(
    '14',
    '_meta keys follow the prefix rules and reserved keys are not assumed.',
    'S/{v}/basic/index.mdx',
    'the tracker adds no _meta keys of its own; the spec-defined ones it sends in 2026-07-28 are checked under 1.4 and 3',
  ),

  // §15 Newer features
  enforced(
    '15.1',
    'Without the tasks capability, task-augmented requests are processed normally, ignoring params.task.',
    'S/2025-11-25/basic/utilities/tasks.mdx',
  ),
  enforced(
    '15.2',
    '2026-07-28 tools/call may answer input_required with an elicitation form and a sealed requestState, completed by a retry.',
    'S/2026-07-28/basic/patterns/mrtr.mdx',
  ),
  enforced('15.3', '2026-07-28 list and read results carry ttlMs and cacheScope.', 'S/2026-07-28/server/utilities/caching.mdx'),
  enforced(
    '15.4',
    'subscriptions/listen is acknowledged, tags its notifications with the subscriptionId, and ends on cancel.',
    'S/2026-07-28/basic/patterns/subscriptions.mdx',
  ),
  uncovered(
    '15.5',
    'Icons on serverInfo, tools, prompts, resources.',
    'S/2025-11-25/basic/index.mdx',
    'the tracker has no icons (a MAY)',
  ),
  enforced(
    '15.6',
    'Elicitation forms ask only for flat primitive fields, and only when the client can answer them.',
    'S/2026-07-28/client/elicitation.mdx',
  ),
  uncovered(
    '15.7',
    'Sampling with tools only for clients that declared it.',
    'S/2025-11-25/client/sampling.mdx',
    'the tracker never asks the client to sample',
  ),
  uncovered(
    '15.8',
    'roots/list only for clients that declared roots.',
    'S/{v}/client/roots.mdx',
    'the tracker never asks for roots',
  ),
  uncovered(
    '15.9',
    'Deprecated features in 2026-07-28.',
    'S/2026-07-28/deprecated.mdx',
    'a list of deprecations, no behaviour of its own',
  ),
  uncovered('16', 'Streamable HTTP transport.', 'S/{v}/basic/transports.mdx', 'out of scope: the server speaks stdio only'),

  // §17 Ambiguities: the choices we made
  uncovered(
    'A-1',
    'Which revision is latest.',
    'REQUIREMENTS.md §0.1',
    'a product decision (we serve both eras), no behaviour of its own',
  ),
  uncovered('A-2', 'The draft revision equals 2026-07-28.', 'schema/draft/schema.json', 'no behaviour of its own'),
  enforced('A-3', 'Errors whose request id cannot be read carry id null.', 'JSON-RPC 2.0 §5'),
  enforced('A-4', 'Outside 2025-03-26 a batch gets one -32600 with id null.', 'S/2025-06-18/changelog.mdx'),
  enforced(
    'A-5',
    'An unsupported protocolVersion in initialize gets a result with our latest version, not an error.',
    'S/{v}/basic/lifecycle.mdx',
  ),
  enforced(
    'A-6',
    'Requests before initialize (other than ping) and a second initialize get -32600.',
    'S/{v}/basic/lifecycle.mdx',
  ),
  uncovered('A-7', 'What the server may send before initialized.', 'S/{v}/basic/lifecycle.mdx', NO_SERVER_REQUESTS),
  enforced(
    'A-8',
    "Arguments failing a tool's inputSchema give an isError result in every revision.",
    'S/2025-11-25/server/tools.mdx',
  ),
  enforced(
    'A-9',
    'structuredContent is on every successful call of a tool with an outputSchema and absent on isError results.',
    'S/2025-06-18/server/tools.mdx',
  ),
  uncovered('A-10', 'Tasks error codes.', 'S/2025-11-25/basic/utilities/tasks.mdx', 'tasks are not implemented'),
  uncovered(
    'A-11',
    'JSON Schema dialect before 2025-11-25.',
    'S/2025-11-25/basic/index.mdx',
    "the tools' schemas use keywords common to draft-07 and 2020-12; the runner validates messages, not the schemas tools publish",
  ),
  enforced('A-12', 'resources/templates/list is paginated in 2025-11-25 too.', 'schema/2025-11-25/schema.ts'),
  enforced('A-13', 'Embedded resources in prompts always carry mimeType.', 'S/{v}/server/prompts.mdx'),
  enforced('A-14', 'Prompts are multi-turn, with assistant turns between user turns.', 'S/{v}/server/prompts.mdx'),
  uncovered(
    'A-15',
    'Reserved _meta prefixes differ between 2025-06-18 and 2025-11-25.',
    'S/{v}/basic/index.mdx',
    'the tracker defines no _meta keys of its own',
  ),
  enforced('A-16', 'instructions are sent in 2024-11-05 too (the schema has them).', 'schema/2024-11-05/schema.ts'),
  enforced(
    'A-17',
    'On shutdown the server ends each open listen stream with its success result, tagged with the subscriptionId.',
    'S/2026-07-28/basic/patterns/subscriptions.mdx',
  ),
  enforced('A-18', 'After a cancel nothing more is sent for that request.', 'S/2026-07-28/basic/transports/stdio.mdx'),
  uncovered(
    'A-19',
    'Progress stops before the response is written.',
    'S/{v}/basic/utilities/progress.mdx',
    'the runner cannot order a notification against a response (responses pair by id, notifications by method); the engine enforces it and its uvu tests check it',
  ),
  enforced(
    'A-20',
    'URI templates are level 1 plus one form-style query expansion, and concrete URIs match back to them.',
    'RFC 6570',
  ),
  enforced('A-21', 'No notifications/message before logging/setLevel.', 'schema/{v}/schema.ts'),
  enforced('A-22', 'Methods of undeclared capabilities get -32601.', 'S/2025-03-26/server/utilities/completion.mdx'),
  enforced('A-23', 'Timestamps are RFC 3339 UTC.', 'S/2025-06-18/server/resources.mdx'),
  enforced(
    'A-24',
    'Resource not found is -32002 in handshake sessions and -32602 in 2026-07-28.',
    'S/2026-07-28/basic/index.mdx',
  ),
  uncovered('A-25', 'Ids the server generates are integers.', 'schema/{v}/schema.json', NO_SERVER_REQUESTS),

  // §18 JSON-RPC examples and MCP probes
  enforced('J1', 'Positional params on an unknown method: -32601 with id 1.', 'JSON-RPC 2.0 §7'),
  enforced('J2', 'Positional params, reversed: -32601 with id 2.', 'JSON-RPC 2.0 §7'),
  enforced('J3', 'Named params on an unknown method: -32601 with id 3.', 'JSON-RPC 2.0 §7'),
  enforced('J4', 'Named params reordered: -32601 with id 4.', 'JSON-RPC 2.0 §7'),
  enforced('J5', 'A notification with params is not answered.', 'JSON-RPC 2.0 §7'),
  enforced('J6', 'A notification without params is not answered.', 'JSON-RPC 2.0 §7'),
  enforced('J7', 'An unknown method with a string id: -32601, id echoed as a string.', 'JSON-RPC 2.0 §7'),
  enforced('J8', 'Invalid JSON: -32700 with id null, and the reader goes on.', 'JSON-RPC 2.0 §7'),
  enforced('J9', 'A non-request object: -32600 with id null.', 'JSON-RPC 2.0 §7'),
  enforced('J10', 'A batch with invalid JSON: a single -32700.', 'JSON-RPC 2.0 §7'),
  enforced('J11', 'An empty array: a single -32600.', 'JSON-RPC 2.0 §7'),
  enforced('J12', '[1]: an array of one -32600 in 2025-03-26, a single -32600 elsewhere.', 'JSON-RPC 2.0 §7'),
  enforced('J13', '[1,2,3]: three -32600 in 2025-03-26, a single -32600 elsewhere.', 'JSON-RPC 2.0 §7'),
  enforced('J14', 'A mixed batch: one response per request, none for notifications, in 2025-03-26.', 'JSON-RPC 2.0 §7'),
  enforced('J15', 'An all-notification batch: no output in 2025-03-26.', 'JSON-RPC 2.0 §7'),
  enforced('M1', 'initialize with a supported version is answered with that version.', 'S/{v}/basic/lifecycle.mdx'),
  enforced('M2', 'initialize with an unknown version is answered with our latest, as a result.', 'S/{v}/basic/lifecycle.mdx'),
  enforced('M3', 'notifications/initialized is not answered.', 'S/{v}/basic/lifecycle.mdx'),
  enforced('M4', 'ping gets {} before and after initialize.', 'S/{v}/basic/utilities/ping.mdx'),
  enforced('M5', 'tools/call of an unknown tool: -32602.', 'S/{v}/server/tools.mdx'),
  enforced('M6', 'tools/call with arguments failing the inputSchema: an isError result.', 'S/2025-11-25/server/tools.mdx'),
  enforced(
    'M7',
    'A tool whose work throws (a domain error) gives an isError result, not a JSON-RPC error.',
    'schema/{v}/schema.ts',
  ),
  enforced('M8', 'prompts/get of an unknown prompt or without a required argument: -32602.', 'S/{v}/server/prompts.mdx'),
  enforced(
    'M9',
    'resources/read of an unknown URI: -32002 (-32602 in 2026-07-28), never empty contents.',
    'S/{v}/server/resources.mdx',
  ),
  enforced('M10', 'A cursor the server never issued: -32602.', 'S/{v}/server/utilities/pagination.mdx'),
  enforced('M11', 'notifications/cancelled for an unknown id is ignored.', 'S/{v}/basic/utilities/cancellation.mdx'),
  enforced(
    'M12',
    'A progressToken on a slow tool gives strictly increasing notifications/progress.',
    'S/{v}/basic/utilities/progress.mdx',
  ),
  enforced('M13', 'A method of an undeclared capability: -32601.', 'S/2025-03-26/server/utilities/completion.mdx'),
  enforced('M14', 'A 2026-07-28 request without the required _meta: -32602.', 'S/2026-07-28/basic/index.mdx'),
  enforced(
    'M15',
    'A 2026-07-28 request with an unknown version: -32022 with supported and requested.',
    'S/2026-07-28/basic/versioning.mdx',
  ),
  enforced(
    'M16',
    'server/discover: resultType, supportedVersions, capabilities, ttlMs, cacheScope.',
    'S/2026-07-28/server/discover.mdx',
  ),
  enforced('M17', 'stdout carries only JSON-RPC lines.', 'S/{v}/basic/transports.mdx'),
  enforced('M18', 'Closing stdin makes the server exit promptly with code 0.', 'S/{v}/basic/lifecycle.mdx'),
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
    const head = `${rule.id.padEnd(5)} ${rule.rule}\n      ${rule.spec}`;
    if (!rule.enforced) return `${head}\n      not covered: ${rule.reason}`;
    return [head, ...(byRule.get(rule.id) ?? ['(no fixture!)']).map((name) => `      - ${name}`)].join('\n');
  }).join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(describeManifest());

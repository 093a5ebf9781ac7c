// JSON-RPC 2.0 envelope rules every message a server writes must follow, whatever the fixture
// says. Each problem names the rule it breaks so a failure explains itself.
import type { JsonObject, JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';
import { messageKind } from './message-kinds.js';

export interface RuleViolation {
  problem: string;
  rule: string;
  /** Set when the problem is the message's id (see Session: an id the client itself sent). */
  aboutId?: true;
}

const ENVELOPE_RULE =
  'https://modelcontextprotocol.io/specification/2025-06-18/basic: every message is a JSON-RPC 2.0 object with "jsonrpc": "2.0" (rule 1.1)';
const ID_RULE =
  'https://modelcontextprotocol.io/specification/2025-06-18/basic: an id is a string or an integer, never null on a request (rule 1.2)';
const RESPONSE_RULE =
  'https://modelcontextprotocol.io/specification/2025-06-18/basic: a response has exactly one of result or error (rule 1.4)';
const RESULT_RULE = 'schema Result: result is always a JSON object (rule 1.1)';
const ERROR_RULE = 'schema JSONRPCError: error.code is an integer and error.message a string (rule 1.4)';
const PARAMS_RULE = 'schema Request/Notification: params, when present, is an object (rule 1.1)';
const BATCH_RULE =
  'https://modelcontextprotocol.io/specification/2025-03-26/basic: batches exist only in 2025-03-26; https://www.jsonrpc.org/specification#batch never sends an empty array (rule 1.6)';

export function checkEnvelope(value: JsonValue, negotiatedVersion: string | undefined): RuleViolation[] {
  if (Array.isArray(value)) return checkBatch(value, negotiatedVersion);
  if (!isJsonObject(value)) return [{ problem: 'stdout carried a JSON value that is not an object', rule: ENVELOPE_RULE }];
  return checkSingle(value);
}

function checkBatch(items: JsonValue[], negotiatedVersion: string | undefined): RuleViolation[] {
  const violations: RuleViolation[] = [];
  if (negotiatedVersion !== '2025-03-26') {
    violations.push({
      problem: `sent a batch (JSON array) in a ${negotiatedVersion ?? 'not yet negotiated'} session`,
      rule: BATCH_RULE,
    });
  }
  if (items.length === 0) violations.push({ problem: 'sent an empty array', rule: BATCH_RULE });
  for (const item of items) {
    if (!isJsonObject(item)) violations.push({ problem: 'a batch element is not an object', rule: ENVELOPE_RULE });
    else violations.push(...checkSingle(item));
  }
  return violations;
}

function checkSingle(message: JsonObject): RuleViolation[] {
  const violations: RuleViolation[] = [];
  if (message.jsonrpc !== '2.0')
    violations.push({ problem: `"jsonrpc" is ${JSON.stringify(message.jsonrpc)}, not "2.0"`, rule: ENVELOPE_RULE });
  const kind = messageKind(message);
  if (kind === 'request' || kind === 'notification') violations.push(...checkMethodMessage(message, kind));
  else if (kind === 'response') violations.push(...checkResponse(message));
  else violations.push({ problem: 'the object is neither a request, a notification nor a response', rule: ENVELOPE_RULE });
  return violations;
}

function checkMethodMessage(message: JsonObject, kind: 'request' | 'notification'): RuleViolation[] {
  const violations: RuleViolation[] = [];
  if (kind === 'request' && !isValidRequestId(message.id)) {
    violations.push({ problem: `server request id ${JSON.stringify(message.id)} is not a string or integer`, rule: ID_RULE });
  }
  if ('params' in message && !isJsonObject(message.params)) {
    violations.push({ problem: `params is ${JSON.stringify(message.params)}, not an object`, rule: PARAMS_RULE });
  }
  return violations;
}

function checkResponse(message: JsonObject): RuleViolation[] {
  const hasResult = 'result' in message;
  const hasError = 'error' in message;
  if (hasResult === hasError)
    return [{ problem: hasResult ? 'has both result and error' : 'has neither result nor error', rule: RESPONSE_RULE }];
  if (hasResult) return checkResult(message);
  return checkError(message);
}

function checkResult(message: JsonObject): RuleViolation[] {
  const violations: RuleViolation[] = [];
  if (!isValidRequestId(message.id))
    violations.push({
      problem: `result response id ${JSON.stringify(message.id)} is not a string or integer`,
      rule: ID_RULE,
      aboutId: true,
    });
  if (!isJsonObject(message.result))
    violations.push({ problem: `result is ${JSON.stringify(message.result)}, not an object`, rule: RESULT_RULE });
  return violations;
}

// An error may carry id null (or, from 2025-11-25, no id) when the request id could not be
// read: https://www.jsonrpc.org/specification#response_object and rule A-3.
function checkError(message: JsonObject): RuleViolation[] {
  const violations: RuleViolation[] = [];
  if ('id' in message && message.id !== null && !isValidRequestId(message.id)) {
    violations.push({
      problem: `error response id ${JSON.stringify(message.id)} is not a string, an integer or null`,
      rule: ID_RULE,
      aboutId: true,
    });
  }
  const error = message.error;
  if (!isJsonObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {
    violations.push({ problem: `error is ${JSON.stringify(error)}`, rule: ERROR_RULE });
  }
  return violations;
}

export function isValidRequestId(id: JsonValue | undefined): boolean {
  return typeof id === 'string' || Number.isInteger(id);
}

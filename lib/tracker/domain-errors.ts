// Store failures as tool results: a domain error (the call was wrong) becomes a tool error whose
// message the model can act on (`isError: true`); so does a companion file missing beside the
// server (lib/companion-bundle.ts), whose sentence says which file to copy; anything else (the
// data file is unusable) stays a failure of the request.
//
// A companion missing is an RpcError, the engine's way to answer a read, a prompt or a completion
// with the sentence (-32603). A tool answered at once makes any RpcError it throws its failure,
// `isError: true`, but a tool run as a task (protocol/tools.ts) makes one a `failed` task, the
// place for a JSON-RPC error. Made a tool error here, it is the same answer both ways: the
// sentence in a result the model reads and can pass on to the user.
import { ToolError } from '../../protocol/tools.js';
import { isDomainError } from '../store/index.js';
import { isCompanionMissing } from '../companion-bundle.js';

/**
 * Runs store work; a domain error becomes a tool error whose message the model can act on.
 * Work done synchronously gives its value synchronously (protocol/tools.ts answers it so).
 */
export function domain<T>(work: () => T | Promise<T>): T | Promise<T> {
  try {
    const value = work();
    return value instanceof Promise ? value.catch(asToolError) : value;
  } catch (error) {
    return asToolError(error);
  }
}

function asToolError(error: unknown): never {
  if (isDomainError(error) || isCompanionMissing(error)) throw new ToolError(error.message);
  throw error;
}

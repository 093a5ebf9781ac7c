// Store failures as tool results: a domain error (the call was wrong) becomes a tool error whose
// message the model can act on (`isError: true`); anything else (the data file is unusable)
// stays a failure of the request.
import { ToolError } from '../../protocol/tools.js';
import { isDomainError } from '../store/index.js';

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
  if (isDomainError(error)) throw new ToolError(error.message);
  throw error;
}

// Store failures as tool results: a domain error (the call was wrong) becomes a tool error whose
// message the model can act on (`isError: true`); anything else (the data file is unusable)
// stays a failure of the request.
import { ToolError } from '../../protocol/tools.js';
import { isDomainError } from '../store/index.js';

/** Runs store work; a domain error becomes a tool error whose message the model can act on. */
export async function domain<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isDomainError(error)) throw new ToolError(error.message);
    throw error;
  }
}

// One shape for every query error: what is wrong, then where ("at column 18"), then, when
// there is one, the way out ("Use one of: todo, in_progress, ..."). Columns are 1-based
// characters of the query as given, so a client can underline the place.
import { domainError, type DomainError } from '../../model/errors.js';

export function jqlError(what: string, column: number, help?: string): DomainError {
  return domainError('invalid_argument', `${what} at column ${column}.${help === undefined ? '' : ` ${help}`}`);
}

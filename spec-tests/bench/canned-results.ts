// The floor servers' answers: the tracker's own results, captured by the benchmark
// (captureCanned, correctness.ts), one file per request signature, read the first time that
// signature is asked for. A signature with no file gets `{}`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cannedFileName, signatureOf } from './signature.js';

export type CannedResult = (message: { method?: unknown; params?: unknown }) => string;

/** The result text for a request, from the files in `cannedDir` (none given: always `{}`). */
export function cannedResults(cannedDir: string | undefined): CannedResult {
  const results = new Map<string, string>();
  return (message) => {
    const signature = signatureOf(message.method, message.params);
    let result = results.get(signature);
    if (result === undefined) {
      try {
        result = cannedDir ? readFileSync(join(cannedDir, cannedFileName(signature)), 'utf8') : '{}';
      } catch {
        result = '{}';
      }
      results.set(signature, result);
    }
    return result;
  };
}

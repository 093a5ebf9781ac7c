// Answers derived from many issues (a search, a sprint's counts) cost a scan of a project.
// They stay true until the next record is applied, so they are kept until then: every
// change, ours or another process's, advances `lastSeq` and empties the cache. A read that
// asks the same question again in between costs a Map lookup instead of a scan.
import type { TrackerState } from './state.js';

/** More distinct questions than this between two changes, and the oldest answers go. */
const MAX_ANSWERS = 256;
/** A longer question (a search for a whole page of text) is answered, not kept: keys are memory too. */
const MAX_QUESTION_CHARS = 1024;

export interface DerivedCache {
  /** `compute()`'s answer for `question` at the state's current revision. */
  get<T>(state: TrackerState, question: string, compute: () => T): T;
}

export function createDerivedCache(): DerivedCache {
  let revision = -1;
  const answers = new Map<string, unknown>();
  return {
    get<T>(state: TrackerState, question: string, compute: () => T): T {
      if (state.lastSeq !== revision) {
        answers.clear();
        revision = state.lastSeq;
      }
      if (answers.has(question)) return answers.get(question) as T;
      if (question.length > MAX_QUESTION_CHARS) return compute();
      const answer = freezeDeep(compute()); // a thrown domain error is not kept: the next call throws it again
      if (answers.size >= MAX_ANSWERS) answers.delete(answers.keys().next().value as string);
      answers.set(question, answer);
      return answer;
    },
  };
}

/** A kept answer is handed to every caller that asks again, so nobody may change it. */
function freezeDeep<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) freezeDeep(inner);
  return Object.freeze(value);
}

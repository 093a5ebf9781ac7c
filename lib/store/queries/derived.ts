// First reading: skip this file. It is performance or flow-control code, the last step of the reading path in docs/reading-path.md.
// Answers derived from many issues (a search, a sprint's counts) cost a scan of a project.
// They stay true until the next record is applied, so they are kept until then: every
// change, ours or another process's, advances `lastSeq` and empties the cache. A read that
// asks the same question again in between costs a Map lookup instead of a scan.
import type { TrackerState } from '../state/state.js';

/** More distinct questions than this between two changes, and the oldest answers go. */
const MAX_ANSWERS = 256;
/** A longer question (a search for a whole page of text) is answered, not kept: keys are memory too. */
const MAX_QUESTION_CHARS = 1024;

export interface DerivedCache {
  /** `compute()`'s answer for `question` at the state's current revision. */
  get<T>(state: TrackerState, question: string, compute: () => T): T;
  /**
   * The same for an answer that may be computed across turns of the event loop (a promise):
   * kept only if no record was applied meanwhile. An answer computed at once is kept and
   * returned at once, as `get` does.
   */
  getAcrossTurns<T>(state: TrackerState, question: string, compute: () => T | Promise<T>): T | Promise<T>;
}

export function createDerivedCache(): DerivedCache {
  let revision = -1;
  const answers = new Map<string, unknown>();

  /** Forgets every answer once a record has been applied since they were made. */
  function current(state: TrackerState): Map<string, unknown> {
    if (state.lastSeq !== revision) {
      answers.clear();
      revision = state.lastSeq;
    }
    return answers;
  }

  function keep<T>(question: string, answer: T): T {
    if (question.length > MAX_QUESTION_CHARS) return answer;
    const frozen = freezeDeep(answer);
    if (answers.size >= MAX_ANSWERS) answers.delete(answers.keys().next().value as string);
    answers.set(question, frozen);
    return frozen;
  }

  return {
    get<T>(state: TrackerState, question: string, compute: () => T): T {
      if (current(state).has(question)) return answers.get(question) as T;
      return keep(question, compute()); // a thrown domain error is not kept: the next call throws it again
    },
    getAcrossTurns<T>(state: TrackerState, question: string, compute: () => T | Promise<T>): T | Promise<T> {
      if (current(state).has(question)) return answers.get(question) as T;
      const askedAt = state.lastSeq;
      const answer = compute();
      if (!(answer instanceof Promise)) return keep(question, answer); // no turn passed: nothing was applied
      return answer.then((late) => {
        if (state.lastSeq !== askedAt) return late; // it may mix issues from before and after the change
        return keep(question, late); // the cache is still at askedAt: lastSeq only grows
      });
    },
  };
}

/** A kept answer is handed to every caller that asks again, so nobody may change it. */
function freezeDeep<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) freezeDeep(inner);
  return Object.freeze(value);
}

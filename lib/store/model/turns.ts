// Taking turns with other work: a long job (reading a large issue from the snapshot file,
// printing its text, hashing it) does a slice, then awaits nextTurn() before the next one.
//
// A bare setImmediate gives every job its next slice in the same turn of the event loop: six
// large issues read and printed at once were twelve slices in one turn, and a ping read in the
// turn after waited for all twelve (issue 30). Here the jobs queue, and each turn lets one of
// them go on, first come first served: a turn runs one slice of such work, and between turns
// Node reads its input, so a ping waits for one slice at most.

/** The jobs waiting for their next slice, oldest first. */
const waiting: (() => void)[] = [];

/** Resolves in a later turn of the event loop, once the jobs that asked before have had theirs. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (waiting.length === 1) setImmediate(letOneGoOn);
  });
}

function letOneGoOn(): void {
  (waiting.shift() as () => void)();
  // Queued from inside an immediate, this one runs in the next turn, after Node reads its input.
  if (waiting.length > 0) setImmediate(letOneGoOn);
}

// Taking turns (lib/store/model/turns.ts): long jobs that await nextTurn() between their slices
// run one slice a turn of the event loop between them all, so input read between two turns (a
// ping) waits for one slice, not one slice of every job (issue 30). Ordering, not timing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { nextTurn } from '../store/model/turns.js';

test('three jobs of four slices each: one slice a turn, in the order they asked, and a turn between each', async () => {
  let turn = 0;
  let counting = true;
  const tick = () => {
    turn += 1;
    if (counting) setImmediate(tick);
  };
  setImmediate(tick);
  const slices: { job: string; turn: number }[] = [];
  const job = async (name: string) => {
    for (let slice = 0; slice < 4; slice++) {
      await nextTurn();
      slices.push({ job: name, turn });
    }
  };
  await Promise.all(['a', 'b', 'c'].map(job));
  counting = false;
  const turns = slices.map((slice) => slice.turn);
  assert.equal(new Set(turns).size, slices.length, `slices ran in turns ${turns.join(', ')}`);
  assert.equal(slices.map((slice) => slice.job).join(''), 'abcabcabcabc');
});

test.run();

// The benchmark's SDK peers (spec-tests/bench/sdk-tracker.ts, sdk2-tracker.ts) must answer its
// correctness checks as ours does, or `npm run bench` refuses to report. They take our tools
// as they are (sdk-tools.ts) and reuse our resources and prompts (sdk-surface.ts); this test
// runs the very checks the benchmark runs, so a peer that drifts fails here, not in the next
// benchmark.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { bundle } from '../bench/build-servers.js';
import { CANDIDATES_IN } from '../bench/candidates.js';
import { answers, disagreements } from '../bench/correctness.js';
import { copyForRun, ensureIssuesFile } from '../bench/data.js';
import { CHECKS, ERAS } from '../bench/workload.js';
import { scratchDir } from '../test-support/tiny-servers.js';

const PEERS = { sdk1: 'spec-tests/bench/sdk-tracker.ts', sdk2: 'spec-tests/bench/sdk2-tracker.ts' } as const;

test('both SDK peers answer every correctness check of the benchmark as ours does, in each era they speak', async () => {
  const issues = await ensureIssuesFile(() => {});
  const bundles = {
    ours: join(process.cwd(), 'dist/mcp-tracker.mjs'),
    sdk1: await bundle(process.cwd(), PEERS.sdk1, join(scratchDir, 'sdk-tracker.mjs')),
    sdk2: await bundle(process.cwd(), PEERS.sdk2, join(scratchDir, 'sdk2-tracker.mjs')),
  };
  let runs = 0;
  const command = (name: keyof typeof bundles) => [
    process.execPath,
    bundles[name],
    '--data',
    copyForRun(issues, scratchDir, `peers-${++runs}.jsonl`),
  ];
  for (const era of ERAS) {
    const ours = await answers(command('ours'), CHECKS, era);
    for (const peer of CANDIDATES_IN[era].filter((name) => name === 'sdk1' || name === 'sdk2')) {
      const differ = disagreements(CHECKS, ours, await answers(command(peer), CHECKS, era));
      assert.equal(differ, [], `${peer} in the ${era} era`);
    }
  }
});

test.run();

// A writer for sql-search.test.ts to kill: creates issues and comments on them, one line on
// stdout per write, until it is killed.
import { openPostgresStore } from '../../lib/store/postgres/index.js';

const url = process.argv[2] ?? '';
const store = await openPostgresStore({ url, shown: 'the test database', log: () => {}, seed: false, watch: false });
for (let n = 0; ; n++) {
  const { issue } = await store.createIssue({ project: 'WEB', title: `Written before the kill ${n}`, labels: ['backend'] });
  await store.addComment(issue.key, { body: `comment ${n}` });
  process.stdout.write(`${issue.key}\n`);
}

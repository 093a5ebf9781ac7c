// An argument name a tool does not know is the model's typo, not something to drop: every
// tracker tool refuses it as a tool execution error naming the closest name it knows, its
// inputSchema says so (additionalProperties: false), and the refused call changes nothing on
// disk. The same call spelled right is served. (The protocol's side: protocol/tools.ts.)
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { transcript } from '../../protocol/tests/harness.js';
import { openStore, silentLogger } from '../store/index.js';
import { TOOLSET_NAMES } from '../tracker/toolsets.js';
import { createTrackerServer } from '../tracker/server.js';

type Json = Record<string, any>;

/** A right call of every tool, each with its first argument name misspelled by one letter in `typo`. */
const CALLS: Record<string, { args: Json; typo: [string, string] }> = {
  search_issues: { args: { project: 'PROJ' }, typo: ['projct', 'project'] },
  get_issue: { args: { key: 'PROJ-101' }, typo: ['kye', 'key'] },
  create_issue: { args: { project: 'PROJ', title: 'Typo check' }, typo: ['tittle', 'title'] },
  update_issue: { args: { key: 'PROJ-104', status: 'in_progress' }, typo: ['stauts', 'status'] },
  bulk_update_status: { args: { keys: ['PROJ-104'], status: 'in_review' }, typo: ['key', 'keys'] },
  add_comment: { args: { key: 'PROJ-101', body: 'Seen.' }, typo: ['bdy', 'body'] },
  add_attachment: {
    args: { key: 'PROJ-101', name: 'note.txt', mimeType: 'text/plain', content: 'aGk=' },
    typo: ['mimetype', 'mimeType'],
  },
  link_issues: { args: { from: 'PROJ-101', type: 'relates_to', to: 'PROJ-104' }, typo: ['too', 'to'] },
  summarize_sprint: { args: { sprint: 'PROJ-S42' }, typo: ['sprnt', 'sprint'] },
  manage_sprint: { args: { action: 'goal', sprint: 'PROJ-S42', goal: 'Ship it' }, typo: ['gaol', 'goal'] },
  define_fields: { args: { project: 'PROJ', components: ['api'] }, typo: ['component', 'components'] },
  import_issues: { args: { text: 'Summary,Issue key\nTypo check,PROJ-900\n', dry_run: true }, typo: ['dryrun', 'dry_run'] },
  export_issues: { args: { format: 'csv' }, typo: ['fromat', 'format'] },
};

async function tracker() {
  const dir = mkdtempSync(join(tmpdir(), 'tool-unknown-arguments-'));
  const path = join(dir, 'tracker.jsonl');
  const store = await openStore({ path, log: silentLogger, watch: false });
  const t = transcript(createTrackerServer(store, { tools: { toolsets: [...TOOLSET_NAMES] } }).definition);
  await t.initialize('2025-11-25');
  let id = 0;
  return {
    bytes: () => statSync(path).size,
    async ask(method: string, params: Json): Promise<Json> {
      const mine = ++id;
      t.client({ jsonrpc: '2.0', id: mine, method, params });
      const answers = (await t.until((messages) => messages.some((message) => message.id === mine))) as Json[];
      return answers.find((message) => message.id === mine)!;
    },
    close() {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('every tool, every toolset: its inputSchema refuses names it does not declare', async () => {
  const t = await tracker();
  try {
    const { result } = await t.ask('tools/list', {});
    assert.equal(result.tools.map((tool: Json) => tool.name).sort(), Object.keys(CALLS).sort(), 'a tool without a call here');
    for (const tool of result.tools) assert.is(tool.inputSchema.additionalProperties, false, tool.name);
  } finally {
    t.close();
  }
});

test('every tool refuses a misspelled argument, names the one meant, and writes nothing; spelled right, it runs', async () => {
  const t = await tracker();
  try {
    for (const [name, { args, typo }] of Object.entries(CALLS)) {
      const [wrong, right] = typo;
      const { [right]: value, ...rest } = args;
      const before = t.bytes();
      const refused = await t.ask('tools/call', { name, arguments: { ...rest, [wrong]: value } });
      assert.is(refused.error, undefined, `${name}: a tool execution error, not a protocol error`);
      assert.is(refused.result.isError, true, name);
      assert.ok(
        refused.result.content[0].text.includes(`unknown argument \`${wrong}\` (did you mean \`${right}\`?)`),
        `${name}: ${refused.result.content[0].text}`,
      );
      assert.is(t.bytes(), before, `${name}: a refused call reached the disk`);
      const served = await t.ask('tools/call', { name, arguments: args });
      assert.is(served.result.isError, undefined, `${name}: ${JSON.stringify(served.result.content)}`);
    }
  } finally {
    t.close();
  }
});

test('a name close to none is answered with the names the tool takes; a nested one with its own', async () => {
  const t = await tracker();
  try {
    const far = await t.ask('tools/call', { name: 'get_issue', arguments: { key: 'PROJ-101', verbose: true } });
    assert.is(
      far.result.content[0].text,
      "Invalid arguments for get_issue: unknown argument `verbose`; get_issue takes key, fields, comments_before, include, attachment. Fix the arguments to match the tool's inputSchema and call it again.",
    );
    const nested = await t.ask('tools/call', {
      name: 'define_fields',
      arguments: { project: 'PROJ', custom: [{ name: 'Team', type: 'select', optoins: ['a'] }] },
    });
    assert.ok(nested.result.content[0].text.includes('custom.0: unknown key `optoins` (did you mean `options`?)'));
  } finally {
    t.close();
  }
});

test('`_meta` among the arguments is metadata, not a typo: left out, and the call runs', async () => {
  const t = await tracker();
  try {
    const answer = await t.ask('tools/call', {
      name: 'add_comment',
      arguments: { key: 'PROJ-101', body: 'With metadata.', _meta: { 'example.com/trace': 't-1' } },
    });
    assert.is(answer.result.isError, undefined, JSON.stringify(answer.result.content));
    assert.is(answer.result.structuredContent.comment.body, 'With metadata.');
  } finally {
    t.close();
  }
});

test.run();

// Toolsets and read-only mode (lib/tracker/toolsets.ts): every tool has a set, read-only mode
// offers no tool that changes data, and the command line and its environment twins choose them,
// with a startup error (exit code 2) for a set that does not exist.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCommandLine } from '../cli.js';
import { spawnStdioClient } from '../demo/stdio-client.js';
import { openStore, silentLogger } from '../store/index.js';
import { trackerTools } from '../tracker/tools.js';
import {
  OPT_IN_TOOLSETS,
  TOOLSET_NAMES,
  TOOLSET_OF,
  isMutating,
  parseReadOnlyVariable,
  parseToolsets,
  selectTools,
} from '../tracker/toolsets.js';

async function allTools() {
  const dir = mkdtempSync(join(tmpdir(), 'toolsets-'));
  const store = await openStore({ path: join(dir, 'tracker.jsonl'), log: silentLogger, watch: false });
  const tools = trackerTools(store);
  store.close();
  rmSync(dir, { recursive: true, force: true });
  return tools;
}

test('every tool is in one toolset, and the table names no tool that is gone', async () => {
  const names = (await allTools()).map((tool) => tool.name);
  const unplaced = names.filter((name) => TOOLSET_OF[name] === undefined);
  assert.equal(unplaced, [], 'place these tools in TOOLSET_OF (lib/tracker/toolsets.ts)');
  assert.equal(
    Object.keys(TOOLSET_OF).filter((name) => !names.includes(name)),
    [],
    'TOOLSET_OF names tools that no longer exist',
  );
  for (const set of TOOLSET_NAMES) assert.ok(Object.values(TOOLSET_OF).includes(set), `toolset ${set} has no tool`);
});

test('read-only mode keeps exactly the tools annotated readOnlyHint: true, in order', async () => {
  const tools = await allTools();
  const kept = selectTools(tools, { readOnly: true });
  assert.equal(
    kept.map((tool) => tool.name),
    tools
      .filter((tool) => tool.annotations?.readOnlyHint === true && !OPT_IN_TOOLSETS.includes(TOOLSET_OF[tool.name]!))
      .map((tool) => tool.name),
  );
  assert.ok(kept.length > 0 && kept.every((tool) => !isMutating(tool)));
  assert.equal(
    selectTools(tools, { toolsets: ['issues'], readOnly: true }).map((tool) => tool.name),
    ['search_issues', 'get_issue'],
  );
  assert.is(selectTools(tools, {}).length, tools.length - 3, 'all but the projects set');
});

test('an opt-in set (projects) is offered only when named; every other set is offered by default', async () => {
  const tools = await allTools();
  const offered = selectTools(tools, {}).map((tool) => tool.name);
  assert.equal(
    offered,
    tools.map((tool) => tool.name).filter((name) => !OPT_IN_TOOLSETS.includes(TOOLSET_OF[name]!)),
  );
  assert.not.ok(offered.includes('define_fields'));
  assert.equal(
    selectTools(tools, { toolsets: ['projects'] }).map((tool) => tool.name),
    ['define_fields', 'import_issues', 'export_issues'],
  );
});

test('toolset names: forgiving about case and spaces, an error naming the valid ones otherwise', () => {
  assert.equal(parseToolsets(' Issues, sprints,issues'), ['issues', 'sprints']);
  assert.throws(() => parseToolsets('issues,bugs'), /unknown toolset bugs; the toolsets are issues, sprints, admin, projects/);
  assert.throws(() => parseToolsets(' , '), /needs one or more of: issues, sprints, admin, projects/);
  assert.equal(parseCommandLine(['--toolsets', 'sprints', '--read-only']).toolsets, ['sprints']);
  assert.is(parseCommandLine(['--read-only']).readOnly, true);
  assert.is(parseCommandLine([]).readOnly, false);
  assert.is(parseReadOnlyVariable('1'), true);
  assert.is(parseReadOnlyVariable(undefined), false);
  assert.throws(() => parseReadOnlyVariable('maybe'), /MCP_TRACKER_READ_ONLY must be/);
});

const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, ['dist/mcp-tracker.mjs', '--ephemeral', ...args], {
    input: '',
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });

test('an unknown toolset stops the start: exit code 2, the valid names on stderr, nothing on stdout', () => {
  for (const [args, env, source] of [
    [['--toolsets', 'issues,bugs'], {}, '--toolsets'],
    [[], { MCP_TRACKER_TOOLSETS: 'bugs' }, 'MCP_TRACKER_TOOLSETS'],
  ] as const) {
    const started = run([...args], env);
    assert.is(started.status, 2, source);
    assert.match(started.stderr, `${source}: unknown toolset bugs; the toolsets are issues, sprints, admin`);
    assert.is(started.stdout, '');
  }
  assert.is(run([], { MCP_TRACKER_READ_ONLY: 'perhaps' }).status, 2);
});

/** The tool names a server started with these arguments and environment lists. */
async function listedNames(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const client = spawnStdioClient(process.execPath, ['dist/mcp-tracker.mjs', '--ephemeral', ...args], {
    env: { ...process.env, ...env },
  });
  await client.initialize('2025-11-25');
  const answer = (await client.request('tools/list')) as { result: { tools: { name: string }[] } };
  await client.close();
  return answer.result.tools.map((tool) => tool.name);
}

test('the environment twins choose like the options; an option wins over its variable', async () => {
  const readOnly = ['search_issues', 'get_issue', 'summarize_sprint'];
  assert.equal(await listedNames([], { MCP_TRACKER_READ_ONLY: '1' }), readOnly);
  assert.equal(await listedNames(['--read-only']), readOnly);
  assert.equal(await listedNames([], { MCP_TRACKER_TOOLSETS: 'sprints' }), ['summarize_sprint', 'manage_sprint']);
  assert.equal(await listedNames(['--toolsets', 'admin'], { MCP_TRACKER_TOOLSETS: 'sprints' }), ['bulk_update_status']);
  assert.equal(await listedNames([], { MCP_TRACKER_TOOLSETS: 'sprints,projects' }), [
    'summarize_sprint',
    'manage_sprint',
    'define_fields',
    'import_issues',
    'export_issues',
  ]);
});

test.run();

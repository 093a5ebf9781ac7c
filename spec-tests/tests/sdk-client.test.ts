// Interoperability: the official SDK's Client, an independent implementation, drives the
// bundled server over stdio. The SDK validates every result against its own schemas, so a
// shape we got wrong fails here even where our own tests agree with us.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

async function connect(): Promise<Client> {
  const client = new Client({ name: 'sdk-interop-test', version: '1.0.0' }, { capabilities: {} });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['dist/mcp-tracker.mjs', '--ephemeral', '--page-size', '4'],
      stderr: 'ignore',
    }),
  );
  return client;
}

test('the SDK client lists and reads every resource, across pages', async () => {
  const client = await connect();
  try {
    const uris: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor ? { cursor } : {});
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    } while (cursor);
    assert.ok(uris.length > 10, `${uris.length} resources`);
    for (const uri of uris) assert.ok((await client.readResource({ uri })).contents.length > 0, uri);
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.is(resourceTemplates.length, 4);
    const read = await client.readResource({ uri: 'jira://project/PROJ/issues?status=todo' });
    assert.match(String((read.contents[0] as { text?: string } | undefined)?.text), /"status":"todo"/);
  } finally {
    await client.close();
  }
});

test('the SDK client gets every prompt and completes their arguments', async () => {
  const client = await connect();
  try {
    const { prompts } = await client.listPrompts();
    const args: Record<string, Record<string, string>> = {
      triage_issue: { issue_key: 'PROJ-102' },
      sprint_review: {},
      standup: { assignee: 'bob' },
      bug_report: { project: 'PROJ' },
      release_notes: { sprint: 'PROJ-S41' },
    };
    for (const prompt of prompts) {
      const got = await client.getPrompt({ name: prompt.name, arguments: args[prompt.name] ?? {} });
      assert.ok(got.messages.length >= 4, prompt.name);
    }
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'triage_issue' },
      argument: { name: 'issue_key', value: 'PROJ-10' },
    });
    assert.ok(completion.completion.values.includes('PROJ-102'));
  } finally {
    await client.close();
  }
});

test('the SDK client calls every tool, and its output-schema check accepts our structured results', async () => {
  const client = await connect();
  try {
    const tools = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    const args: Record<string, Record<string, unknown>> = {
      create_issue: { project: 'WEB', title: 'From the SDK client' },
      get_issue: { key: 'PROJ-101' },
      update_issue: { key: 'PROJ-104', status: 'in_progress', assignee: null, sprint: null },
      add_comment: { key: 'PROJ-104', body: 'hello from the SDK' },
      add_attachment: { key: 'PROJ-104', name: 'sdk.txt', mimeType: 'text/plain', content: 'aGVsbG8=' },
      link_issues: { from: 'PROJ-104', type: 'relates_to', to: 'PROJ-105' },
      search_issues: { text: 'checkout', limit: 5 },
      bulk_update_status: { keys: ['PROJ-103', 'PROJ-105'], status: 'done' },
      summarize_sprint: {},
      manage_sprint: { action: 'goal', sprint: 'PROJ-S43', goal: 'From the SDK client' },
    };
    assert.equal(tools.map((t) => t.name).sort(), Object.keys(args).sort());
    for (const tool of tools) {
      const result = await client.callTool({ name: tool.name, arguments: args[tool.name] });
      assert.is(result.isError, undefined, `${tool.name}: ${JSON.stringify(result.content)}`);
      assert.ok(result.structuredContent, `${tool.name} returns structured content`);
    }
    const failed = await client.callTool({ name: 'get_issue', arguments: { key: 'PROJ-424242' } });
    assert.is(failed.isError, true);
  } finally {
    await client.close();
  }
});

test.run();

// An audit of what hosts differ on. Claude Code never reads resource templates, so every
// template has a tool twin that answers the same question (the table below, checked by asking
// both); VS Code completes arguments, so every template variable and prompt argument has
// completion (checked on the wire: an empty value gets suggestions).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Burndown } from '../store/index.js';
import { burndownSvg } from '../tracker/burndown-svg.js';
import { type Json, trackerSession } from './tracker-session.js';

interface Twin {
  /** A URI of the template, read as a host would. */
  uri: string;
  /** The tool call that answers the same question. */
  tool: string;
  args: Json;
  /** What must agree: from the resource's JSON (or its blob contents) and from the tool's structuredContent or content. */
  same: (resource: Json, tool: Json, content: Json[]) => [unknown, unknown];
  /** Tool calls that make the sample exist first. */
  setup?: [string, Json][];
  /** How the resource's text reads; default: as JSON. */
  parse?: (text: string) => Json;
}

/** A text file on PROJ-101: the demo data has no attachments. */
const ATTACH: [string, Json] = [
  'add_attachment',
  { key: 'PROJ-101', name: 'trace.txt', mimeType: 'text/plain', content: Buffer.from('timeout\n').toString('base64') },
];

const keys = (issues: { key: string }[]) => issues.map((issue) => issue.key);
const withoutReadAt = ({ read_at: _readAt, ...rest }: Json) => rest;

/** Every resource template and its tool twin: a new template needs a row here. */
const TWINS: Record<string, Twin> = {
  'jira://issue/{key}': {
    uri: 'jira://issue/PROJ-101',
    tool: 'get_issue',
    args: { key: 'PROJ-101' },
    same: (resource, tool) => [resource.issue, tool.issue],
  },
  'jira://project/{project_key}/stats': {
    uri: 'jira://project/PROJ/stats',
    tool: 'summarize_sprint',
    args: { project: 'PROJ' },
    same: (resource, tool) => [withoutReadAt(resource), tool.project_stats],
  },
  'jira://project/{project_key}/issues{?status,assignee,priority}': {
    uri: 'jira://project/PROJ/issues?status=in_progress&priority=P1',
    tool: 'search_issues',
    args: { project: 'PROJ', status: 'in_progress', priority: 'P1', limit: 100 },
    same: (resource, tool) => [keys(resource.issues), keys(tool.issues)],
  },
  'jira://project/{project_key}/sprint/current': {
    uri: 'jira://project/WEB/sprint/current',
    tool: 'summarize_sprint',
    args: { project: 'WEB' },
    same: ({ read_at: _readAt, burndown, ...stats }, { stats: { history: _history, ...numbers }, burndown: points }) => [
      { stats, burndown },
      { stats: numbers, burndown: points },
    ],
  },
  'jira://sprints{?project,state}': {
    uri: 'jira://sprints?project=PROJ',
    tool: 'summarize_sprint',
    args: { project: 'PROJ' },
    same: (resource, tool) => [resource.sprints, tool.sprints],
  },
  'jira://sprint/{sprint_id}': {
    uri: 'jira://sprint/PROJ-S42',
    tool: 'summarize_sprint',
    args: { sprint: 'PROJ-S42' },
    same: (resource, tool) => [withoutReadAt(resource), tool.stats],
  },
  'jira://sprint/{sprint_id}/burndown': {
    uri: 'jira://sprint/PROJ-S42/burndown',
    tool: 'summarize_sprint',
    args: { sprint: 'PROJ-S42' },
    same: (resource, tool) => [resource.points, tool.burndown],
  },
  // The chart is drawn from the same points: drawn again from the tool's, it is the same image.
  'jira://sprint/{sprint_id}/burndown.svg': {
    uri: 'jira://sprint/PROJ-S42/burndown.svg',
    tool: 'summarize_sprint',
    args: { sprint: 'PROJ-S42' },
    parse: (svg) => ({ svg }),
    same: (resource, { stats, burndown }) => [resource.svg, burndownSvg({ ...stats, points: burndown } as Burndown)],
  },
  'jira://search{?jql}': {
    uri: `jira://search?jql=${encodeURIComponent('status != done ORDER BY priority')}`,
    tool: 'search_issues',
    args: { query: 'status != done ORDER BY priority', limit: 100 },
    same: (resource, tool) => [keys(resource.issues), keys(tool.issues)],
  },
  'jira://issue/{key}/attachment/{name}': {
    uri: 'jira://issue/PROJ-101/attachment/trace.txt',
    tool: 'get_issue',
    args: { key: 'PROJ-101', attachment: 'trace.txt' },
    setup: [ATTACH],
    same: (resource, _tool, content) => [resource, content.find((block) => block.type === 'resource')?.resource],
  },
  'jira://issue/{key}/history': {
    uri: 'jira://issue/PROJ-104/history',
    tool: 'get_issue',
    args: { key: 'PROJ-104', include: ['history'] },
    same: (resource, tool) => [resource, tool.history],
  },
  'jira://issue/{key}/links': {
    uri: 'jira://issue/PROJ-102/links',
    tool: 'get_issue',
    args: { key: 'PROJ-102', include: ['links'] },
    same: (resource, tool) => [resource, tool.linked],
  },
  'jira://ready{?project}': {
    uri: 'jira://ready?project=PROJ',
    tool: 'search_issues',
    args: { ready: true, project: 'PROJ', limit: 100 },
    same: (resource, tool) => [keys(resource.issues), keys(tool.issues)],
  },
};

/** A session whose answers must be results, and in which the server asks the client nothing. */
async function session(capabilities: Json = {}) {
  const tracker = await trackerSession({}, capabilities);
  const ask = async (method: string, params?: Json): Promise<Json> => {
    const answer = await tracker.ask(method, params);
    const asked = tracker.requests.map((request) => request.method);
    assert.equal(asked, [], `${method} ${JSON.stringify(params)}: the server asked the client first`);
    assert.ok(answer?.result, `${method} ${JSON.stringify(params)}: ${JSON.stringify(answer?.error)}`);
    return answer.result!;
  };
  return { ask, close: tracker.close };
}

// A twin answers as its resource does whatever the client offers: a client that can sample
// (or elicit) gets the same numbers, at once, without being asked anything (tools-sprints.ts says why).
const CLIENTS: [string, Json][] = [
  ['a client that offers nothing', {}],
  ['a client that offers sampling and elicitation', { sampling: {}, elicitation: {} }],
];

for (const [client, capabilities] of CLIENTS)
  test(`every resource template has a tool twin that gives the same answer, to ${client}`, async () => {
    const { ask, close } = await session(capabilities);
    try {
      const { resourceTemplates } = await ask('resources/templates/list');
      const { tools } = await ask('tools/list');
      const templates = resourceTemplates.map((template: Json) => template.uriTemplate as string);
      assert.equal(
        templates.filter((template: string) => TWINS[template] === undefined),
        [],
        'templates without a twin in TWINS',
      );
      for (const template of templates) {
        const twin = TWINS[template]!;
        assert.ok(
          tools.some((tool: Json) => tool.name === twin.tool),
          `${template}: its twin ${twin.tool} is not a tool`,
        );
        for (const [name, args] of twin.setup ?? []) await ask('tools/call', { name, arguments: args });
        const read = await ask('resources/read', { uri: twin.uri });
        const called = await ask('tools/call', { name: twin.tool, arguments: twin.args });
        assert.not.ok(called.isError, `${twin.tool}: ${JSON.stringify(called.content)}`);
        const contents = read.contents[0];
        const parse = twin.parse ?? ((text: string) => JSON.parse(text) as Json);
        const resource = 'blob' in contents ? contents : parse(contents.text);
        const [fromResource, fromTool] = twin.same(resource, called.structuredContent, called.content);
        assert.ok(
          fromResource !== undefined && JSON.stringify(fromResource) !== '[]',
          `${template}: the sample answers something`,
        );
        assert.equal(fromTool, fromResource, `${template} and ${twin.tool} agree`);
      }
    } finally {
      close();
    }
  });

/** The variables of an RFC 6570 template: `{key}`, `{?status,assignee}`. */
const variablesOf = (template: string): string[] =>
  [...template.matchAll(/\{[?&]?([^}]+)\}/g)].flatMap((match) => match[1]!.split(','));

test('every template variable and every prompt argument has completion', async () => {
  const { ask, close } = await session();
  try {
    const { resourceTemplates } = await ask('resources/templates/list');
    const { prompts } = await ask('prompts/list');
    const asked: { ref: Json; name: string }[] = [
      ...resourceTemplates.flatMap((template: Json) =>
        variablesOf(template.uriTemplate).map((name) => ({ ref: { type: 'ref/resource', uri: template.uriTemplate }, name })),
      ),
      ...prompts.flatMap((prompt: Json) =>
        (prompt.arguments ?? []).map((argument: Json) => ({
          ref: { type: 'ref/prompt', name: prompt.name },
          name: argument.name,
        })),
      ),
    ];
    assert.ok(asked.length >= 10);
    // An attachment's name completes from the attachments there are.
    await ask('tools/call', { name: ATTACH[0], arguments: ATTACH[1] });
    for (const { ref, name } of asked) {
      const { completion } = await ask('completion/complete', { ref, argument: { name, value: '' } });
      assert.ok(completion.values.length > 0, `${JSON.stringify(ref)} ${name}: no suggestions`);
    }
  } finally {
    close();
  }
});

test('the query completes its last word, and keeps what was typed before it', async () => {
  const { ask, close } = await session();
  try {
    const complete = async (value: string) =>
      (
        await ask('completion/complete', {
          ref: { type: 'ref/resource', uri: 'jira://search{?jql}' },
          argument: { name: 'jql', value },
        })
      ).completion.values as string[];
    assert.ok((await complete('assignee = al')).includes('assignee = alice'));
    assert.ok((await complete('project = PROJ AND stat')).includes('project = PROJ AND status'));
    assert.ok((await complete('sprint in open')).includes('sprint in openSprints()'));
  } finally {
    close();
  }
});

test.run();

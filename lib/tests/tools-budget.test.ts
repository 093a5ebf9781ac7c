// What a host shows the model of tools/list, measured: each tool's name, description and input
// schema as JSON, at 4 characters a token. Every tool costs the model context on every turn,
// used or not, so the whole list has a budget (issue 15): at most 12 tools and 2,500 tokens.
// The README and docs/tracker.md state the count and the estimate; this test keeps them honest.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ToolSelection } from '../tracker/toolsets.js';
import { trackerSession } from './tracker-session.js';

const TOOLS_MAX = 12;
const TOKENS_MAX = 2500;
const CHARACTERS_PER_TOKEN = 4;

interface ListedTool {
  name: string;
  description: string;
  inputSchema: unknown;
}

/** tools/list as a 2025-11-25 client receives it from a tracker on fresh demo data. */
async function listedTools(selection: ToolSelection = {}): Promise<ListedTool[]> {
  const tracker = await trackerSession({ tools: selection });
  try {
    const answer = await tracker.ask('tools/list');
    return answer.result!.tools as ListedTool[];
  } finally {
    tracker.close();
  }
}

/** The model's view: name, description and input schema; titles, output schemas and annotations stay with the host. */
export function modelVisibleTokens(tools: readonly ListedTool[]): number {
  const characters = tools.reduce(
    (sum, { name, description, inputSchema }) => sum + JSON.stringify({ name, description, inputSchema }).length,
    0,
  );
  return Math.ceil(characters / CHARACTERS_PER_TOKEN);
}

test(`tools/list stays within ${TOOLS_MAX} tools and ${TOKENS_MAX} tokens as a model sees it`, async () => {
  const tools = await listedTools();
  const tokens = modelVisibleTokens(tools);
  process.stderr.write(`tools/list: ${tools.length} tools, ${tokens} tokens\n`);
  assert.ok(tools.length <= TOOLS_MAX, `${tools.length} tools; the budget is ${TOOLS_MAX}: fold tools by noun`);
  assert.ok(tokens <= TOKENS_MAX, `${tokens} tokens; the budget is ${TOKENS_MAX}: shorten descriptions`);
});

for (const page of ['README.md', 'docs/tracker.md'])
  test(`${page} states the tool count and the token estimate (within 5%, in hundreds)`, async () => {
    const tools = await listedTools();
    const tokens = modelVisibleTokens(tools);
    const stated = /(\d+) tools, about ([\d,]+) tokens of `tools\/list`/.exec(readFileSync(page, 'utf8'));
    assert.ok(stated, `${page}: "N tools, about T tokens of \`tools/list\`"`);
    const [count, estimate] = [Number(stated![1]), Number(stated![2]!.replace(/,/g, ''))];
    const shown = `${tools.length} tools, about ${(Math.round(tokens / 100) * 100).toLocaleString('en-US')} tokens`;
    assert.is(count, tools.length, `${page} says ${count} tools; write "${shown}"`);
    assert.ok(
      Math.abs(estimate - tokens) <= tokens * 0.05,
      `${page} says about ${estimate} tokens, measured ${tokens}; write "${shown}"`,
    );
  });

test('read-only mode and a toolset list fewer tools, and cost less', async () => {
  const all = modelVisibleTokens(await listedTools());
  const readOnly = await listedTools({ readOnly: true });
  const sprints = await listedTools({ toolsets: ['sprints'] });
  assert.equal(
    readOnly.map((tool) => tool.name),
    ['search_issues', 'get_issue', 'summarize_sprint'],
  );
  assert.ok(modelVisibleTokens(readOnly) < all);
  assert.equal(
    sprints.map((tool) => tool.name),
    ['summarize_sprint', 'manage_sprint'],
  );
});

test.run();

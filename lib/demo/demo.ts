// `mcp-tracker demo`: the first thing a learner runs. It starts the server as a child process
// on a temporary data file and drives it as an MCP client would: it reads the live sprint
// resource, changes an issue with a tool, receives the resource-updated notification it
// subscribed to, and reads the resource again to show the numbers moved.

import { type WireEvent, spawnStdioClient } from './stdio-client.js';

export interface DemoOptions {
  trace: boolean;
  /** The server's script: this same file (the bundle, or lib/main.ts under tsx). */
  serverScript: string;
  print(line: string): void;
}

interface SprintNumbers {
  name: string;
  progress_pct: number;
  by_status: Record<string, number>;
  last_updated: string;
  read_at: string;
}

export async function runDemo(options: DemoOptions): Promise<number> {
  const { print } = options;
  const trace = (event: WireEvent) => print(`${event.direction === 'sent' ? '  client →' : '  server ←'} ${event.line}`);
  const client = spawnStdioClient(process.execPath, [...process.execArgv, options.serverScript, '--ephemeral'], {
    onWire: options.trace ? trace : undefined,
  });
  try {
    const init = await client.initialize('2025-11-25');
    const info = init.serverInfo as { name: string; version: string };
    print(`Connected to ${info.name} ${info.version}, protocol ${String(init.protocolVersion)}, on a fresh demo data file.\n`);

    const readSprint = async (): Promise<SprintNumbers> => {
      const answer = await client.request('resources/read', { uri: 'jira://sprint/current' });
      const contents = (answer.result as { contents: { text: string }[] }).contents;
      return JSON.parse(contents[0]?.text ?? '{}') as SprintNumbers;
    };
    const show = (label: string, s: SprintNumbers) =>
      print(
        `${label}: ${s.name} is ${s.progress_pct}% done (done: ${s.by_status.done ?? 0}, in progress: ${s.by_status.in_progress ?? 0}); last_updated ${s.last_updated}, read at ${s.read_at}`,
      );

    await client.request('resources/subscribe', { uri: 'jira://sprint/current' });
    print('Subscribed to jira://sprint/current.');
    const before = await readSprint();
    show('Read 1', before);

    print('\nCalling the tool update_issue {key: "PROJ-103", status: "done"} ...');
    const call = await client.request('tools/call', { name: 'update_issue', arguments: { key: 'PROJ-103', status: 'done' } });
    const result = call.result as { structuredContent?: { change: string } };
    print(`Tool result: ${result.structuredContent?.change ?? JSON.stringify(call)}`);

    const updated = await client.nextNotification('notifications/resources/updated', 3000);
    print(`Notification: ${JSON.stringify(updated)}`);

    const after = await readSprint();
    show('Read 2', after);
    print(
      after.progress_pct !== before.progress_pct || after.last_updated !== before.last_updated
        ? `\nThe data changed: progress ${before.progress_pct}% → ${after.progress_pct}%, last_updated ${before.last_updated} → ${after.last_updated}.`
        : '\nThe data did not change (unexpected).',
    );
    print('Resources are nouns the host reads; tools are verbs the model calls. Same data, two doors.');
    return (await client.close()) === 0 ? 0 : 1;
  } catch (error) {
    print(`demo failed: ${(error as Error).message}`);
    client.child.kill();
    return 1;
  }
}

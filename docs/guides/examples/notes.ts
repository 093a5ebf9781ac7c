// The worked example of docs/guides: a small notes server on the engine in protocol/, with one
// tool, a fixed resource, a template with completion and a prompt. The guides show it piece by
// piece; spec-tests/tests/guides.test.ts runs it as written, through the fixture beside it.

import * as z from 'zod/mini';
import { excerpt, invalidParams } from '../../../protocol/errors.js';
import type { ServerDefinition } from '../../../protocol/definition.js';
import { type Server, createServer } from '../../../protocol/server.js';
import type { PromptDefinition } from '../../../protocol/prompts.js';
import type { ResourceDefinition, ResourceTemplateDefinition } from '../../../protocol/resources.js';
import { type ToolDefinition, ToolError, structuredResult } from '../../../protocol/tools.js';

/** The application's data: here a map in memory; the tracker's is lib/store. */
export const notes = new Map<string, string>([['welcome', 'Notes are nouns; adding one is a verb.']]);

// --- add-a-tool.md: the tool ---------------------------------------------------------------

const NAME = /^[a-z][a-z0-9-]{0,39}$/;

export const addNote: ToolDefinition<{ name: string; text: string }> = {
  name: 'add_note',
  title: 'Add a note',
  description: 'Add a note under a new name (lower case letters, digits and hyphens). Fails if the name is taken.',
  input: z.strictObject({ name: z.string(), text: z.string().check(z.maxLength(2000)) }),
  output: z.object({ name: z.string(), uri: z.string(), notes: z.number() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run({ name, text }) {
    // A problem the model can fix is a ToolError: an `isError: true` result it reads, not a protocol error.
    if (!NAME.test(name)) throw new ToolError(`Invalid note name '${name}': use a-z, 0-9 and '-', starting with a letter.`);
    if (notes.has(name)) throw new ToolError(`A note named '${name}' exists; choose another name.`);
    notes.set(name, text);
    for (const listener of listeners) listener(`notes://note/${name}`);
    return structuredResult({ name, uri: `notes://note/${name}`, notes: notes.size });
  },
};

// --- add-a-resource-and-prompt.md: the resources and the prompt ----------------------------------

export const allNotes: ResourceDefinition = {
  uri: 'notes://all',
  name: 'all-notes',
  title: 'Every note',
  mimeType: 'application/json',
  // Computed at each read: a fixed URI, live contents.
  read: () => [{ uri: 'notes://all', mimeType: 'application/json', text: JSON.stringify(Object.fromEntries(notes)) }],
};

export const oneNote: ResourceTemplateDefinition = {
  uriTemplate: 'notes://note/{name}',
  name: 'note',
  title: 'One note',
  mimeType: 'text/plain',
  // null: nothing is there, which the engine answers as "resource not found" (-32002).
  read: ({ name }, uri) => {
    const text = typeof name === 'string' ? notes.get(name) : undefined;
    return text === undefined ? null : [{ uri, mimeType: 'text/plain', text }];
  },
  complete: { name: (typed) => ({ values: [...notes.keys()].filter((name) => name.startsWith(typed)) }) },
};

export const reviewNote: PromptDefinition = {
  name: 'review_note',
  title: 'Review a note',
  description: 'Ask the model to review one note, embedded as a resource.',
  arguments: [{ name: 'name', description: 'The note to review', required: true, complete: oneNote.complete!['name'] }],
  get({ name }) {
    const text = notes.get(name!);
    // A prompt has no isError result: an argument that names nothing is invalid params (-32602).
    if (text === undefined) throw invalidParams(`No note named ${excerpt(name!)}`, { name: excerpt(name!) });
    return {
      messages: [
        { role: 'user', content: { type: 'text', text: 'Review this note: is it clear, and what is missing?' } },
        { role: 'user', content: { type: 'resource', resource: { uri: `notes://note/${name}`, mimeType: 'text/plain', text } } },
      ],
    };
  },
};

// --- the server ------------------------------------------------------------------------------

export const definition: ServerDefinition = {
  info: { name: 'notes-example', version: '1.0.0' },
  instructions: 'Read notes://all for every note; add one with add_note.',
  tools: [addNote],
  resources: [allNotes],
  resourceTemplates: [oneNote],
  prompts: [reviewNote],
  subscriptions: true,
};

/** Who hears of a new note: the servers, to tell the clients subscribed to what changed. */
const listeners: ((uri: string) => void)[] = [];

/** The server every transport serves: the definition, and the notes' changes told to subscribers. */
export function notesServer(): Server {
  const server = createServer(definition);
  // A new note changes two resources: the note itself, and the list of every note.
  listeners.push((uri) => {
    server.resourceUpdated(uri);
    server.resourceUpdated('notes://all');
  });
  return server;
}

// The notes server over stdio: `npx tsx docs/guides/examples/notes-server.ts`. Every program on
// the engine starts like this (lib/main.ts does the same for the tracker).
//
// The guard comes first: from here on only the engine writes to stdout, which carries protocol
// messages only (console.log goes to stderr).
import '../../../protocol/stdout-guard.js';

import { serveStdio } from '../../../protocol/stdio.js';
import { notesServer } from './notes.js';

serveStdio(notesServer());

// Attachments: added within three stated bounds (one file, per issue, all together), read
// back byte for byte after the file is opened again, and refused without a byte reaching the
// journal.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LIMITS, openStore, type TrackerStore } from '../store/index.js';
import { domainFailure } from './demo-stores.js';

const directories: string[] = [];
test.after(() => {
  for (const directory of directories) fs.rmSync(directory, { recursive: true, force: true });
});

function dataFile(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-attachments-'));
  directories.push(directory);
  return path.join(directory, 'tracker.jsonl');
}

const open = (file: string): Promise<TrackerStore> => openStore({ path: file, log: () => {}, watch: false });

const base64 = (bytes: number, fill = 7): string => Buffer.alloc(bytes, fill).toString('base64');

/** The attempt is refused with `message`, and the journal is byte for byte what it was. */
async function refusedUntouched(file: string, attempt: () => unknown, message: string): Promise<void> {
  const before = fs.readFileSync(file);
  assert.match(await domainFailure(attempt), message);
  assert.ok(fs.readFileSync(file).equals(before), 'a refused attachment never reaches the journal');
}

test('an attachment is stored as one record and read back byte for byte after reopening', async () => {
  const file = dataFile();
  const store = await open(file);
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);
  // Line breaks, as MIME writes base64, are taken out.
  const wrapped = png.toString('base64').replace(/(.{8})/g, '$1\r\n');
  const { attachment, count, change } = await store.addAttachment('proj-101', {
    name: 'shot.png',
    mimeType: 'Image/PNG',
    content: wrapped,
    author: 'carol',
  });
  assert.equal(attachment.mimeType, 'image/png');
  assert.is(attachment.size, png.length);
  assert.is(count, 1);
  assert.is(change.description, `shot.png (image/png, ${png.length} bytes) attached to PROJ-101 by carol`);
  store.close();

  const again = await open(file);
  const read = again.getAttachment('PROJ-101', 'shot.png');
  assert.ok(Buffer.from(read.content, 'base64').equals(png));
  assert.equal(
    again.getAttachments('PROJ-101').map((a) => [a.name, a.mimeType, a.size, a.author]),
    [['shot.png', 'image/png', png.length, 'carol']],
  );
  assert.equal(again.completeAttachmentNames('PROJ-101', 'SH').values, ['shot.png']);
  assert.match(
    await domainFailure(() => again.getAttachment('PROJ-101', 'nope.txt')),
    "has no attachment named 'nope.txt'; it has: shot.png",
  );
  again.close();
});

test('names, types and content are checked before anything is planned; a name is never reused', async () => {
  const file = dataFile();
  const store = await open(file);
  const add = (name: string, mimeType: string, content: string) => () =>
    store.addAttachment('PROJ-101', { name, mimeType, content });
  await refusedUntouched(file, add('../etc/passwd', 'text/plain', 'aGk='), "Invalid attachment name '../etc/passwd'");
  await refusedUntouched(file, add('.hidden', 'text/plain', 'aGk='), 'Invalid attachment name');
  await refusedUntouched(file, add('a/b.txt', 'text/plain', 'aGk='), 'Invalid attachment name');
  await refusedUntouched(file, add('x'.repeat(101), 'text/plain', 'aGk='), 'up to 100 characters');
  await refusedUntouched(file, add('a.txt', 'text', 'aGk='), "Invalid mimeType 'text'");
  await refusedUntouched(file, add('a.txt', 'text/plain', 'aGk'), 'is not base64');
  await refusedUntouched(file, add('a.txt', 'text/plain', 'a*k='), 'is not base64');
  await refusedUntouched(file, add('a.txt', 'text/plain', ''), 'is not base64');
  await refusedUntouched(
    file,
    () => store.addAttachment('PROJ-999', { name: 'a.txt', mimeType: 'text/plain', content: 'aGk=' }),
    'Issue PROJ-999 not found',
  );
  await store.addAttachment('PROJ-101', { name: 'a.txt', mimeType: 'text/plain', content: 'aGk=' });
  await refusedUntouched(file, add('a.txt', 'text/plain', 'aGk='), 'already has an attachment named a.txt');
  store.close();
});

test(`one attachment: ${LIMITS.attachmentBytesMax} bytes decoded; one more is refused`, async () => {
  const file = dataFile();
  const store = await open(file);
  const full = await store.addAttachment('PROJ-101', {
    name: 'full.bin',
    mimeType: 'application/octet-stream',
    content: base64(LIMITS.attachmentBytesMax),
  });
  assert.is(full.attachment.size, LIMITS.attachmentBytesMax);
  await refusedUntouched(
    file,
    () =>
      store.addAttachment('PROJ-102', {
        name: 'over.bin',
        mimeType: 'application/octet-stream',
        content: base64(LIMITS.attachmentBytesMax + 1),
      }),
    `the limit is ${LIMITS.attachmentBytesMax} bytes (512 KiB) per attachment`,
  );
  // Far past the limit the length alone refuses it, before the characters are looked at.
  await refusedUntouched(
    file,
    () =>
      store.addAttachment('PROJ-102', { name: 'huge.bin', mimeType: 'application/octet-stream', content: 'A'.repeat(5_000_000) }),
    'per attachment',
  );
  store.close();
});

test(`one issue: ${LIMITS.attachmentsPerIssueMax} attachments; the next is refused`, async () => {
  const file = dataFile();
  const store = await open(file);
  for (let i = 1; i <= LIMITS.attachmentsPerIssueMax; i++) {
    await store.addAttachment('PROJ-103', { name: `log-${i}.txt`, mimeType: 'text/plain', content: 'aGk=' });
  }
  await refusedUntouched(
    file,
    () => store.addAttachment('PROJ-103', { name: 'one-more.txt', mimeType: 'text/plain', content: 'aGk=' }),
    `PROJ-103 already has ${LIMITS.attachmentsPerIssueMax} attachments, the most one issue may have`,
  );
  store.close();
});

test('all attachments together: 32 MiB decoded; past it nothing is written, and reopening agrees', async () => {
  const file = dataFile();
  const store = await open(file);
  const each = LIMITS.attachmentBytesMax;
  const fit = LIMITS.attachmentStoreBytesMax / each;
  const content = base64(each);
  const keys = ['PROJ-101', 'PROJ-102', 'PROJ-103', 'PROJ-104'];
  for (let i = 0; i < fit; i++) {
    const key = keys[i % keys.length] as string;
    await store.addAttachment(key, { name: `part-${i}.bin`, mimeType: 'application/octet-stream', content });
  }
  await refusedUntouched(
    file,
    () => store.addAttachment('PROJ-105', { name: 'last.txt', mimeType: 'text/plain', content: 'aGk=' }),
    `The tracker holds ${LIMITS.attachmentStoreBytesMax} bytes of attachments; 2 more would pass the limit of 32 MiB`,
  );
  store.close();
  const again = await open(file);
  assert.is(
    keys.reduce((sum, key) => sum + again.getAttachments(key).length, 0),
    fit,
  );
  assert.match(
    await domainFailure(() => again.addAttachment('PROJ-105', { name: 'last.txt', mimeType: 'text/plain', content: 'aGk=' })),
    'would pass the limit',
  );
  again.close();
});

test.run();

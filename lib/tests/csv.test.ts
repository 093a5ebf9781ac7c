// The CSV reader and writer on the cases RFC 4180 and spreadsheet exports make hard: quotes,
// doubled quotes, line breaks inside quotes, CRLF and LF, a byte order mark, and the bounds.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CsvError, readCsv, writeCsv, type CsvLimits } from '../store/exchange/csv.js';

const LIMITS: CsvLimits = { maxRecords: 100, maxFields: 10, maxFieldChars: 50 };
const fields = (text: string, limits = LIMITS) => readCsv(text, limits).map((record) => record.fields);

function refusal(text: string, limits = LIMITS): string {
  try {
    readCsv(text, limits);
  } catch (error) {
    if (error instanceof CsvError) return error.message;
    throw error;
  }
  throw new Error('expected a CsvError');
}

test('plain fields, CRLF and LF line ends, a last line without one', () => {
  assert.equal(fields('a,b\r\nc,d\ne,f'), [
    ['a', 'b'],
    ['c', 'd'],
    ['e', 'f'],
  ]);
});

test('quoted fields hold commas, doubled quotes and line breaks; lines are counted across them', () => {
  const records = readCsv('"x, y","say ""hi""","two\r\nlines"\r\nnext,"",end\r\n', LIMITS);
  assert.equal(records, [
    { line: 1, fields: ['x, y', 'say "hi"', 'two\r\nlines'] },
    { line: 3, fields: ['next', '', 'end'] },
  ]);
});

test('a byte order mark is skipped, empty fields are kept, blank lines between records are skipped', () => {
  assert.equal(fields('\uFEFFIssue key,Summary\n\nPROJ-1,,\n'), [
    ['Issue key', 'Summary'],
    ['PROJ-1', '', ''],
  ]);
});

test('malformed input is refused with its line', () => {
  assert.is(refusal('a,b\n"open,c\n'), 'line 2: a quoted field is never closed');
  assert.is(refusal('a\n"x"y,z\n'), 'line 2: text after the closing quote of a field (a quote inside a field is written "")');
});

test('bounds: records, fields per record, characters per field (quoted or not)', () => {
  const limits = { maxRecords: 2, maxFields: 3, maxFieldChars: 5 };
  assert.is(refusal('a\nb\nc\n', limits), 'more than 2 records (the header counts as one)');
  assert.is(refusal('a,b,c,d\n', limits), 'line 1: more than 3 fields in one record');
  assert.is(refusal('ok\n123456\n', limits), 'line 2: a field longer than 5 characters');
  assert.is(refusal('ok\n"12""456"\n', limits), 'line 2: a field longer than 5 characters');
  assert.equal(fields('"12""45"\n', limits), [['12"45']]);
});

test('the writer quotes only what needs it, ends records with CRLF, and reads back to the same fields', () => {
  const records = [
    ['Issue key', 'Summary', 'Description'],
    ['PROJ-1', 'Comma, inside', 'Line one\nline "two"'],
    ['PROJ-2', '', 'plain'],
    [''],
  ];
  const text = writeCsv(records);
  assert.ok(text.includes('\r\nPROJ-1,"Comma, inside","Line one\nline ""two"""\r\n'));
  assert.ok(text.endsWith('PROJ-2,,plain\r\n""\r\n'));
  assert.equal(fields(text), records);
});

test.run();

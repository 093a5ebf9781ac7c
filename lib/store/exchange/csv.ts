// CSV as RFC 4180 writes it (https://www.rfc-editor.org/rfc/rfc4180): fields separated by
// commas, records by CRLF (LF alone is accepted too), a field in double quotes when it holds a
// comma, a quote or a line break, and a quote inside such a field doubled. A byte order mark
// at the start (what Excel and Jira put there) is skipped.
//
// Written by hand rather than taken from a package: the reader is one small state machine
// with its tests beside it (lib/tests/csv.test.ts), and the single-file bundle keeps importing
// nothing but Node's own modules.

export interface CsvLimits {
  /** Records, the header included. */
  readonly maxRecords: number;
  /** Fields in one record. */
  readonly maxFields: number;
  /** Characters in one field. */
  readonly maxFieldChars: number;
}

/** One record and the line of the text it starts on (a quoted field may span several lines). */
export interface CsvRecord {
  readonly line: number;
  readonly fields: string[];
}

export class CsvError extends Error {}

/**
 * Splits the text into records. Refuses, naming the line, a quote that is never closed, text
 * after a closing quote, and anything past `limits` (checked as it reads, so a huge field or
 * a file of millions of rows stops early). A blank line between records is skipped.
 */
export function readCsv(text: string, limits: CsvLimits): CsvRecord[] {
  const records: CsvRecord[] = [];
  let position = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (position < text.length) {
    const start = line;
    const blank = text[position] === '\n' || text[position] === '\r';
    const fields: string[] = [];
    for (;;) {
      const field = readField(text, position, line, limits);
      fields.push(field.value);
      if (fields.length > limits.maxFields)
        throw new CsvError(`line ${start}: more than ${limits.maxFields} fields in one record`);
      ({ position, line } = field);
      if (text[position] !== ',') break;
      position++;
    }
    position = skipLineEnd(text, position);
    line++;
    if (blank) continue;
    if (records.length >= limits.maxRecords)
      throw new CsvError(`more than ${limits.maxRecords} records (the header counts as one)`);
    records.push({ line: start, fields });
  }
  return records;
}

interface FieldRead {
  readonly value: string;
  /** Where the field ended: at a comma, a line end or the end of the text. */
  readonly position: number;
  /** The line that position is on. */
  readonly line: number;
}

function readField(text: string, position: number, line: number, limits: CsvLimits): FieldRead {
  if (text[position] !== '"') {
    let end = position;
    while (end < text.length && text[end] !== ',' && text[end] !== '\n' && text[end] !== '\r') end++;
    if (end - position > limits.maxFieldChars) throw tooLong(line, limits);
    return { value: text.slice(position, end), position: end, line };
  }
  const opened = line;
  const parts: string[] = [];
  let length = 0;
  let from = position + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) throw new CsvError(`line ${opened}: a quoted field is never closed`);
    length += quote - from;
    if (length > limits.maxFieldChars) throw tooLong(opened, limits);
    parts.push(text.slice(from, quote));
    line += countLineBreaks(text, from, quote);
    if (text[quote + 1] === '"') {
      parts.push('"');
      length++;
      from = quote + 2;
      continue;
    }
    const after = quote + 1;
    if (after < text.length && text[after] !== ',' && text[after] !== '\n' && text[after] !== '\r') {
      throw new CsvError(`line ${line}: text after the closing quote of a field (a quote inside a field is written "")`);
    }
    return { value: parts.join(''), position: after, line };
  }
}

function tooLong(line: number, limits: CsvLimits): CsvError {
  return new CsvError(`line ${line}: a field longer than ${limits.maxFieldChars} characters`);
}

/** Line breaks as a reader counts them: CRLF, LF or a lone CR is one. */
function countLineBreaks(text: string, from: number, to: number): number {
  let count = 0;
  for (let index = from; index < to; index++) {
    if (text[index] === '\n' || (text[index] === '\r' && text[index + 1] !== '\n')) count++;
  }
  return count;
}

function skipLineEnd(text: string, position: number): number {
  if (text[position] === '\r' && text[position + 1] === '\n') return position + 2;
  return position < text.length ? position + 1 : position;
}

/** Records as RFC 4180 writes them: CRLF after each, a field quoted only when it must be. */
export function writeCsv(records: readonly (readonly string[])[]): string {
  // A record of one empty field is quoted: unquoted, it would be a blank line, which readers skip.
  return records
    .map((fields) => (fields.length === 1 && fields[0] === '' ? '""\r\n' : `${fields.map(quoteField).join(',')}\r\n`))
    .join('');
}

function quoteField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

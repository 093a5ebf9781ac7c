// Decodes a `-- client raw --` section: each line of the section is one write to the server's
// stdin, spelled with escapes so that framing cases (CRLF, BOM, split UTF-8, missing final
// newline) can be written down exactly. The line break that ends a section line is never sent.
import { FixtureSyntaxError } from './json-sequence.js';

const REPEAT_LINE = /^@repeat (\d+) (.*)$/;

export function parseRawChunks(body: string, firstLine: number): Buffer[] {
  const chunks: Buffer[] = [];
  body.split('\n').forEach((text, index) => {
    const line = firstLine + index;
    if (text === '' || text.startsWith('#')) return;
    chunks.push(decodeChunkLine(text, line));
  });
  return chunks;
}

function decodeChunkLine(text: string, line: number): Buffer {
  const repeat = REPEAT_LINE.exec(text);
  if (!repeat) return unescapeRaw(text, line);
  const unit = unescapeRaw(repeat[2] ?? '', line);
  return Buffer.alloc(unit.length * Number(repeat[1]), unit);
}

/** `\n \r \t \\ \xHH` (one raw byte); every other character is sent as its UTF-8 bytes. */
function unescapeRaw(text: string, line: number): Buffer {
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] ?? '';
    if (char !== '\\') {
      const codePoint = text.codePointAt(index) ?? 0;
      bytes.push(...Buffer.from(String.fromCodePoint(codePoint), 'utf8'));
      if (codePoint > 0xffff) index += 1;
      continue;
    }
    const escape = text[index + 1];
    index += 1;
    if (escape === 'n') bytes.push(0x0a);
    else if (escape === 'r') bytes.push(0x0d);
    else if (escape === 't') bytes.push(0x09);
    else if (escape === '\\') bytes.push(0x5c);
    else if (escape === 'x') {
      bytes.push(parseHexByte(text.slice(index + 1, index + 3), line));
      index += 2;
    } else throw new FixtureSyntaxError(`unknown escape \\${escape ?? ''} in raw section`, line);
  }
  return Buffer.from(bytes);
}

function parseHexByte(hex: string, line: number): number {
  if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new FixtureSyntaxError(`\\x needs two hex digits, got "${hex}"`, line);
  return Number.parseInt(hex, 16);
}

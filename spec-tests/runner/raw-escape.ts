// The inverse of raw-chunks.ts: spells bytes as one raw-section line, so a recorded line that
// is not plain JSON (CRLF, BOM, invalid UTF-8, garbage) is replayed byte for byte.
export function escapeRaw(bytes: Buffer): string {
  let text = '';
  let index = 0;
  while (index < bytes.length) {
    const byte = bytes[index] ?? 0;
    const length = utf8SequenceLength(bytes, index);
    if (length > 1) {
      text += bytes.subarray(index, index + length).toString('utf8');
      index += length;
      continue;
    }
    text += escapeByte(byte, text === '');
    index += 1;
  }
  return text;
}

function escapeByte(byte: number, atLineStart: boolean): string {
  if (byte === 0x0a) return '\\n';
  if (byte === 0x0d) return '\\r';
  if (byte === 0x09) return '\\t';
  if (byte === 0x5c) return '\\\\';
  // A raw line starting with # is a comment and one starting with @ may be a directive.
  const special = atLineStart && (byte === 0x23 || byte === 0x40);
  if (byte >= 0x20 && byte < 0x7f && !special) return String.fromCharCode(byte);
  return `\\x${byte.toString(16).padStart(2, '0')}`;
}

/** Length of a well-formed multi-byte UTF-8 sequence at `index`, or 1 for anything else. */
function utf8SequenceLength(bytes: Buffer, index: number): number {
  const lead = bytes[index] ?? 0;
  const length = lead >= 0xf0 && lead <= 0xf4 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 && lead < 0xe0 ? 2 : 1;
  if (length === 1 || index + length > bytes.length) return 1;
  const sequence = bytes.subarray(index, index + length);
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(sequence);
  return decoded.length > 0 && !decoded.includes('\uFFFD') && decoded !== '\uFEFF' ? length : 1;
}

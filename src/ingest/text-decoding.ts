// Bytes → text for the text types. UTF-8 (with or without a byte-order mark) and UTF-16 with a
// byte-order mark are text; anything else, or text with NUL or many control characters, is binary.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const utf16le = new TextDecoder('utf-16le', { fatal: true, ignoreBOM: false });
const utf16be = new TextDecoder('utf-16be', { fatal: true, ignoreBOM: false });

// C0 controls other than tab, line feed, vertical tab, form feed, carriage return and escape.
const CONTROL = /[\u0001-\u0008\u000e-\u001a\u001c-\u001f\u007f]/g;
const CONTROL_SAMPLE_CHARS = 65_536;

/** The text the bytes hold, or undefined when they are not text. */
export function decodeText(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) text = utf16le.decode(bytes);
    else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = utf16be.decode(bytes);
    else text = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  if (text.includes('\u0000')) return undefined;
  const sample = text.slice(0, CONTROL_SAMPLE_CHARS);
  const controls = sample.match(CONTROL)?.length ?? 0;
  // A stray control character happens in real text; one in a hundred is a binary format.
  if (controls > sample.length / 100) return undefined;
  return text;
}

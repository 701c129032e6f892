// An ECMAScript pattern (valid with the `u` flag) written in RE2's syntax with the same meaning. The
// two agree on most of it; what RE2 reads differently or lacks is rewritten here: `\u` escapes,
// `\cX`, ECMAScript's wider `\s` and `.`, `[]` and `[^]`, `[\b]`, and a `[` inside brackets (RE2 would
// read `[:alpha:]` there as a class name). What RE2 cannot run at all (lookaround, backreferences)
// is left as written, for RE2 to refuse.

/** ECMAScript's white space and line terminators, the members of its `\s`; RE2's `\s` is ASCII only. */
const SPACE = '\\t\\n\\v\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
/** What ECMAScript's `.` does not match without the `s` flag; RE2's `.` only leaves out \n. */
const LINE_BREAKS = '\\n\\r\\x{2028}\\x{2029}';
const ANY = '[\\x{0}-\\x{10ffff}]';
const NOTHING = '[^\\x{0}-\\x{10ffff}]';

const hexAt = (source: string, from: number, length: number): number | undefined => {
  const digits = source.slice(from, from + length);
  return digits.length === length && /^[0-9a-fA-F]+$/.test(digits) ? Number.parseInt(digits, 16) : undefined;
};

/** A `\uXXXX` (a surrogate pair of them read as one code point) or `\u{X…}` at `at`: its code point and length. */
function unicodeEscapeAt(source: string, at: number): { codePoint: number; length: number } | undefined {
  if (source[at + 1] !== 'u') return undefined;
  if (source[at + 2] === '{') {
    const close = source.indexOf('}', at + 3);
    const codePoint = close === -1 ? undefined : hexAt(source, at + 3, close - at - 3);
    return codePoint === undefined ? undefined : { codePoint, length: close - at + 1 };
  }
  const unit = hexAt(source, at + 2, 4);
  if (unit === undefined) return undefined;
  const low = source.startsWith('\\u', at + 6) ? hexAt(source, at + 8, 4) : undefined;
  if (unit >= 0xd800 && unit <= 0xdbff && low !== undefined && low >= 0xdc00 && low <= 0xdfff) {
    return { codePoint: 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00), length: 12 };
  }
  return { codePoint: unit, length: 6 };
}

const codePointEscape = (codePoint: number) => `\\x{${codePoint.toString(16)}}`;

/** The escape at `at` (a backslash) in RE2's syntax, and how many characters of the source it stands for. */
function escapeAt(source: string, at: number, inBrackets: boolean): { written: string; length: number } {
  const unicode = unicodeEscapeAt(source, at);
  if (unicode !== undefined) return { written: codePointEscape(unicode.codePoint), length: unicode.length };
  const next = source[at + 1] ?? '';
  if (next === 'c' && /^[a-zA-Z]$/.test(source[at + 2] ?? '')) return { written: codePointEscape(source.charCodeAt(at + 2) % 32), length: 3 };
  if (next === 's') return { written: inBrackets ? SPACE : `[${SPACE}]`, length: 2 };
  // Inside brackets RE2 keeps its own \S (which also takes \v and the Unicode spaces): a negation cannot be nested there.
  if (next === 'S' && !inBrackets) return { written: `[^${SPACE}]`, length: 2 };
  if (next === 'b' && inBrackets) return { written: '\\x08', length: 2 };
  return { written: `\\${next}`, length: 2 };
}

/** The pattern in RE2's syntax; `dotAll` is ECMAScript's `s` flag. */
export function ecmaToRe2(source: string, dotAll: boolean): string {
  let written = '';
  let inBrackets = false;
  for (let at = 0; at < source.length; ) {
    const char = source[at]!;
    if (char === '\\') {
      const escape = escapeAt(source, at, inBrackets);
      written += escape.written;
      at += escape.length;
    } else if (inBrackets) {
      if (char === ']') inBrackets = false;
      written += char === '[' ? '\\[' : char;
      at += 1;
    } else if (source.startsWith('[]', at)) {
      written += NOTHING;
      at += 2;
    } else if (source.startsWith('[^]', at)) {
      written += ANY;
      at += 3;
    } else {
      if (char === '[') inBrackets = true;
      written += char === '.' ? (dotAll ? ANY : `[^${LINE_BREAKS}]`) : char;
      at += 1;
    }
  }
  return written;
}

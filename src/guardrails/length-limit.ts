// A text longer than a limit, in characters (UTF-16 units, as everywhere in offsets) or in tokens (the
// project's cl100k counter, src/ingest/tokens.ts). The finding starts where the text goes over: at the
// limit for characters, at the first pre-token that does not fit for tokens (never inside a word), and
// runs to the end of the text. A stream decides a pre-token once a character follows it.
import { preTokenEnd } from '../ingest/pre-tokens.js';
import { countTokensUpTo } from '../ingest/tokens.js';
import type { DetectorRun, Detection, TextDetector } from './detector.js';

export const LENGTH_ENTITY = 'LENGTH';

export interface LengthLimits {
  max_characters?: number | undefined;
  max_tokens?: number | undefined;
}

class LengthRun implements DetectorRun {
  /** The text from `base` on: what token counting has not passed yet (all of it for characters alone). */
  private text = '';
  private base = 0;
  private found = false;
  /** Token counting: where the next pre-token starts, and the tokens before it. */
  private preTokenStart = 0;
  private tokens = 0;
  /**
   * A pre-token that reached the end of what has arrived is looked at again only once the text has
   * grown by as much as that pre-token: a word streamed piece by piece (a model writing one long
   * "word") is then scanned O(n) times in all, not once per piece.
   */
  private lookAgainAt = 0;

  constructor(private readonly limits: LengthLimits) {}

  append(piece: string): void {
    this.text += piece;
  }

  private get length(): number {
    return this.base + this.text.length;
  }

  private over(start: number, rule: string): Detection {
    const end = this.length;
    this.found = true;
    this.base = end;
    this.text = '';
    return { finding: { entity_type: LENGTH_ENTITY, start, end, rule }, scope: 'rest' };
  }

  collect(final: boolean) {
    const { limits } = this;
    const length = this.length;
    if (this.found) {
      this.base = length;
      this.text = '';
      return { detections: [], safe: length };
    }
    let characterLimit = Number.POSITIVE_INFINITY;
    if (limits.max_characters !== undefined && length > limits.max_characters) {
      // Never cuts a surrogate pair in two.
      const code = limits.max_characters > this.base ? this.text.charCodeAt(limits.max_characters - 1 - this.base) : 0;
      characterLimit = code >= 0xd800 && code <= 0xdbff ? limits.max_characters - 1 : limits.max_characters;
    }
    let tokenSafe = length;
    if (limits.max_tokens !== undefined && (final || length >= this.lookAgainAt)) {
      while (this.preTokenStart < length && this.preTokenStart < characterLimit) {
        const end = this.base + preTokenEnd(this.text, this.preTokenStart - this.base, this.text.length);
        // A pre-token that reaches the end could still grow.
        if (end === length && !final) {
          this.lookAgainAt = length + (length - this.preTokenStart);
          break;
        }
        const count = countTokensUpTo(this.text.slice(this.preTokenStart - this.base, end - this.base), limits.max_tokens - this.tokens);
        if (this.tokens + count > limits.max_tokens) return { detections: [this.over(this.preTokenStart, 'max_tokens')], safe: length };
        this.tokens += count;
        this.preTokenStart = end;
      }
    }
    if (limits.max_tokens !== undefined) tokenSafe = this.preTokenStart;
    if (characterLimit !== Number.POSITIVE_INFINITY && tokenSafe >= characterLimit) {
      return { detections: [this.over(characterLimit, 'max_characters')], safe: length };
    }
    // Counted text is not read again; the character limit needs the unit before it.
    const counting = limits.max_tokens === undefined ? Number.POSITIVE_INFINITY : this.preTokenStart;
    const keep = Math.min(counting, limits.max_characters ?? Number.POSITIVE_INFINITY, length) - 1;
    if (keep > this.base) {
      this.text = this.text.slice(keep - this.base);
      this.base = keep;
    }
    return { detections: [], safe: final ? length : Math.min(tokenSafe, length) };
  }
}

export function lengthDetector(limits: LengthLimits): TextDetector {
  return { holdBack: 0, start: () => new LengthRun(limits) };
}

// A text longer than a limit, in characters (UTF-16 units, as everywhere in offsets) or in tokens (the
// project's cl100k counter, src/ingest/tokens.ts). The finding starts where the text goes over: at the
// limit for characters, at the first pre-token that does not fit for tokens (never inside a word), and
// runs to the end of the text. A stream decides a pre-token once a character follows it.
import { preTokenEnd } from '../ingest/pre-tokens.js';
import { countTokens } from '../ingest/tokens.js';
import type { DetectorRun, Detection, TextDetector } from './detector.js';

export const LENGTH_ENTITY = 'LENGTH';

export interface LengthLimits {
  max_characters?: number | undefined;
  max_tokens?: number | undefined;
}

/** Never cuts a surrogate pair in two. */
function characterCut(text: string, limit: number): number {
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

class LengthRun implements DetectorRun {
  private text = '';
  private found = false;
  /** Token counting: where the next pre-token starts, and the tokens before it. */
  private preTokenStart = 0;
  private tokens = 0;

  constructor(private readonly limits: LengthLimits) {}

  append(piece: string): void {
    this.text += piece;
  }

  private over(start: number, rule: string): Detection {
    this.found = true;
    return { finding: { entity_type: LENGTH_ENTITY, start, end: this.text.length, rule }, scope: 'rest' };
  }

  collect(final: boolean) {
    const { text, limits } = this;
    const length = text.length;
    if (this.found) return { detections: [], safe: length };
    let characterLimit = Number.POSITIVE_INFINITY;
    if (limits.max_characters !== undefined && length > limits.max_characters) characterLimit = characterCut(text, limits.max_characters);
    let tokenSafe = length;
    if (limits.max_tokens !== undefined) {
      while (this.preTokenStart < length && this.preTokenStart < characterLimit) {
        const end = preTokenEnd(text, this.preTokenStart, length);
        // A pre-token that reaches the end could still grow.
        if (end === length && !final) break;
        const count = countTokens(text.slice(this.preTokenStart, end));
        if (this.tokens + count > limits.max_tokens) return { detections: [this.over(this.preTokenStart, 'max_tokens')], safe: length };
        this.tokens += count;
        this.preTokenStart = end;
      }
      tokenSafe = this.preTokenStart;
    }
    if (characterLimit !== Number.POSITIVE_INFINITY && tokenSafe >= characterLimit) {
      return { detections: [this.over(characterLimit, 'max_characters')], safe: length };
    }
    return { detections: [], safe: final ? length : Math.min(tokenSafe, length) };
  }
}

export function lengthDetector(limits: LengthLimits): TextDetector {
  return { holdBack: 0, start: () => new LengthRun(limits) };
}

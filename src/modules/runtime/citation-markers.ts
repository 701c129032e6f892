// Citation markers in an answer as it streams: [n] (or [n, m]) names passage n of those put before
// the model. A number that names no passage is dropped from the text, never turned into a citation;
// the numbers that remain are kept as they are (no renumbering), so the text streamed and the text
// stored are the same. A marker cut across two pieces of the stream ("… [1" then "2] …") is held
// back until it is complete, so that the deltas joined are exactly the answer.

const MARKER = /\[\s*\d+(?:\s*,\s*\d+)*\s*\]/g;
/** The start of a marker not yet closed: held back at the end of a piece. */
const OPEN_MARKER = /^\[[\d\s,]*$/;
/** Longer than any real marker: text held back no further than this. */
const LONGEST_MARKER = 40;

export class CitationMarkers {
  private pending = '';
  private readonly firstUse: number[] = [];

  /**
   * @param passages how many passages the prompt numbered, [1]..[passages]
   * @param dropUnknown false for an answer in JSON, which is passed on as the model wrote it: a
   *   marker naming no passage may be an array of the JSON ([7]) and is left alone.
   */
  constructor(
    private readonly passages: number,
    private readonly dropUnknown = true,
  ) {}

  /** Takes the next piece of the answer; answers the text that may be sent on now. */
  push(piece: string): string {
    const text = this.pending + piece;
    const open = text.lastIndexOf('[');
    if (open !== -1 && text.length - open <= LONGEST_MARKER && OPEN_MARKER.test(text.slice(open))) {
      this.pending = text.slice(open);
      return this.filter(text.slice(0, open));
    }
    this.pending = '';
    return this.filter(text);
  }

  /** The text still held back, at the end of the answer (an unclosed "[" is plain text). */
  flush(): string {
    const rest = this.pending;
    this.pending = '';
    return rest;
  }

  /** The passage numbers the answer cited, in order of first use. */
  used(): number[] {
    return [...this.firstUse];
  }

  private filter(text: string): string {
    return text.replace(MARKER, (marker) => {
      const numbers = (marker.match(/\d+/g) ?? []).map(Number);
      const known = numbers.filter((n) => n >= 1 && n <= this.passages);
      for (const n of known) if (!this.firstUse.includes(n)) this.firstUse.push(n);
      if (known.length === numbers.length || !this.dropUnknown) return marker;
      return known.length === 0 ? '' : `[${known.join(', ')}]`;
    });
  }
}

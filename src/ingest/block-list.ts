// Where extractors put the blocks they find. It keeps the running size of the text, so that an
// extractor stops as soon as a document goes over the limit instead of after building it whole.
import { ExtractionFailed, type Block, type BlockKind } from './document.js';

export class BlockList {
  readonly blocks: Block[] = [];
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  /** Adds a block unless its text is blank; throws ExtractionFailed past the size limit. */
  add(kind: BlockKind, text: string, where: { level?: number; page?: number } = {}): void {
    if (text.trim() === '') return;
    this.spend(text.length);
    this.push(kind, text, where);
  }

  /**
   * A block built line by line, the limit checked at each line: a few bytes of CSV or JSON can
   * expand into many lines (every line repeats its headers or its path). `end()` adds it.
   */
  lineBlock(kind: BlockKind): { addLine(line: string): void; end(): void } {
    const kept: string[] = [];
    return {
      addLine: (line) => {
        if (line.trim() === '') return;
        this.spend(line.length + 1);
        kept.push(line);
      },
      end: () => {
        if (kept.length > 0) this.push(kind, kept.join('\n'), {});
      },
    };
  }

  /** Adds one block of the lines an iterable generates (see lineBlock). */
  addLines(kind: BlockKind, lines: Iterable<string>): void {
    const block = this.lineBlock(kind);
    for (const line of lines) block.addLine(line);
    block.end();
  }

  private spend(chars: number): void {
    this.chars += chars;
    if (this.chars > this.maxChars) {
      throw new ExtractionFailed('too_large', `The document has more than ${this.maxChars} characters of text, the limit`);
    }
  }

  private push(kind: BlockKind, text: string, where: { level?: number; page?: number }): void {
    // PDFs map glyphs they have no character for to NUL, which no database column of text takes.
    const block: Block = { kind, text: text.includes('\u0000') ? text.replaceAll('\u0000', '') : text };
    if (where.level !== undefined) block.level = where.level;
    if (where.page !== undefined) block.page = where.page;
    this.blocks.push(block);
  }
}

/** Runs of white space (line breaks included) as one space, trimmed. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Each line with its white space collapsed; blank lines dropped. Two passes over the whole text
 * rather than a split, a pass per line and a join: HTML pages call this for every block element.
 */
export function collapseLines(text: string): string {
  return text.replace(/[^\S\n]+/g, ' ').replace(/ ?\n[ \n]*/g, '\n').trim();
}

/** A row of a table as one line that can be read alone: "Name: Ada; Role: engineer". */
export function formatRecord(headers: readonly string[], values: readonly string[]): string {
  const parts: string[] = [];
  values.forEach((raw, i) => {
    const value = collapseWhitespace(raw);
    if (value === '') return;
    const header = collapseWhitespace(headers[i] ?? '');
    parts.push(header === '' ? value : `${header}: ${value}`);
  });
  return parts.join('; ');
}

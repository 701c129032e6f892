// Extracted blocks → chunks for embedding and retrieval. Headings start sections and give each chunk
// its heading path ("Guide > Install"); pages start chunks too. Within a section, pieces (text-pieces.ts) are packed up to
// the token budget, and each chunk after the first starts with the end of the one before (overlap),
// so that a passage cut at a boundary is still found whole in one of them. Pure and deterministic:
// a step repeated after a crash makes the same chunks.
import type { Block, ExtractedDocument } from './document.js';
import { blockPieces, joinedCount, joinerTokens, joinPieces, type Piece } from './text-pieces.js';
import { countText, countTokens } from './tokens.js';

export interface ChunkOptions {
  /** Most tokens (cl100k) in a chunk. */
  maxTokens: number;
  /** Tokens from the end of a chunk repeated at the start of the next one in the same section. */
  overlapTokens: number;
}

export interface Chunk {
  /** 0-based order in the document. */
  position: number;
  text: string;
  tokenCount: number;
  /** The page the chunk's text is on (PDFs). */
  page?: number;
  /** The headings above the chunk, outermost first, joined with " > ". */
  heading?: string;
}

function checkOptions({ maxTokens, overlapTokens }: ChunkOptions): void {
  if (!Number.isInteger(maxTokens) || maxTokens < 1) throw new RangeError('maxTokens must be a positive integer');
  if (!Number.isInteger(overlapTokens) || overlapTokens < 0 || overlapTokens >= maxTokens) {
    throw new RangeError('overlapTokens must be an integer from 0 to less than maxTokens');
  }
}

/** The end of a chunk to repeat: whole trailing pieces, or trailing words when a piece is too long. */
function overlapOf(pieces: readonly Piece[], overlapTokens: number): Piece[] {
  if (overlapTokens === 0) return [];
  const overlap: Piece[] = [];
  let tokens = 0;
  for (let i = pieces.length - 1; i >= 0; i--) {
    const piece = pieces[i]!;
    const cost = piece.tokens + (overlap.length > 0 ? joinerTokens(overlap[0]!.joiner) : 0);
    if (tokens + cost > overlapTokens) break;
    overlap.unshift(piece);
    tokens += cost;
  }
  if (overlap.length > 0 || pieces.length === 0) return overlap;
  const last = pieces[pieces.length - 1]!;
  const words = last.text.split(' ');
  let tail = '';
  let tailTokens = 0;
  for (let i = words.length - 1; i > 0; i--) {
    const wordTokens = countTokens(` ${words[i]}`);
    if (tailTokens + wordTokens > overlapTokens) break;
    tail = tail === '' ? words[i]! : `${words[i]} ${tail}`;
    tailTokens += wordTokens;
  }
  return tail === '' ? [] : [{ text: tail, tokens: tailTokens, counted: countText(tail), joiner: last.joiner, page: last.page }];
}

function tokensOf(pieces: readonly Piece[]): number {
  return pieces.reduce((sum, piece, i) => sum + piece.tokens + (i > 0 ? joinerTokens(piece.joiner) : 0), 0);
}

class ChunkBuilder {
  readonly chunks: Chunk[] = [];
  /** The chunk being filled: first the overlap repeated from the previous chunk, then new pieces. */
  private pieces: Piece[] = [];
  private tokens = 0;
  /** How many of `pieces` are new. */
  private fresh = 0;
  private sectionPieces = 0;
  private heading: string | undefined;

  constructor(private readonly options: ChunkOptions) {}

  /** Ends the section being filled and starts another: no overlap crosses a heading. */
  startSection(heading: string | undefined): void {
    this.finishSection();
    this.heading = heading;
    this.sectionPieces = 0;
  }

  sectionHasText(): boolean {
    return this.sectionPieces > 0;
  }

  add(piece: Piece): void {
    this.sectionPieces++;
    this.place(piece);
  }

  finishSection(): void {
    while (this.fresh > 0) this.cut();
    this.pieces = [];
    this.tokens = 0;
  }

  private cost(piece: Piece): number {
    return piece.tokens + (this.pieces.length > 0 ? joinerTokens(piece.joiner) : 0);
  }

  private place(piece: Piece): void {
    if (this.fresh > 0 && this.tokens + this.cost(piece) > this.options.maxTokens) this.cut();
    // The overlap gives way when the next piece would not fit beside it.
    while (this.fresh === 0 && this.pieces.length > 0 && this.tokens + this.cost(piece) > this.options.maxTokens) {
      this.pieces.shift();
      this.tokens = tokensOf(this.pieces);
    }
    this.tokens += this.cost(piece);
    this.pieces.push(piece);
    this.fresh++;
  }

  /** Writes a chunk of the pending pieces, then starts the next one with its overlap. */
  private cut(): void {
    const { written, carried } = this.writeChunk();
    this.pieces = overlapOf(written, this.options.overlapTokens);
    this.tokens = tokensOf(this.pieces);
    this.fresh = 0;
    for (const piece of carried) this.place(piece);
  }

  private writeChunk(): { written: Piece[]; carried: Piece[] } {
    let pieces = this.pieces;
    let fresh = this.fresh;
    let text = joinPieces(pieces);
    let tokenCount = joinedCount(pieces) ?? countTokens(text);
    // Packing adds up the pieces' own counts; the joined text can count a token or two more (exactly
    // counted from the pieces and their joins). Then
    // the last new piece moves on to the next chunk, or, when only one is left, the overlap goes.
    const carried: Piece[] = [];
    while (tokenCount > this.options.maxTokens && pieces.length > 1) {
      if (fresh > 1) {
        carried.unshift(pieces[pieces.length - 1]!);
        pieces = pieces.slice(0, -1);
        fresh--;
      } else {
        pieces = pieces.slice(1);
      }
      text = joinPieces(pieces);
      tokenCount = joinedCount(pieces) ?? countTokens(text);
    }
    const chunk: Chunk = { position: this.chunks.length, text, tokenCount };
    const page = pieces[0]!.page;
    if (page !== undefined) chunk.page = page;
    if (this.heading !== undefined) chunk.heading = this.heading;
    this.chunks.push(chunk);
    return { written: pieces, carried };
  }
}

// A heading is a label: one that runs on (a whole page set in <h1>) is cut short in the path.
const HEADING_LABEL_CHARS = 200;

function headingLabel(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > HEADING_LABEL_CHARS ? `${line.slice(0, HEADING_LABEL_CHARS - 1)}…` : line;
}

export function chunkDocument(document: ExtractedDocument, options: ChunkOptions): Chunk[] {
  checkOptions(options);
  const builder = new ChunkBuilder(options);
  const headings: Array<{ level: number; text: string }> = [];
  const addHeadingAsText = (block: Block) => {
    for (const piece of blockPieces({ kind: 'paragraph', text: block.text, page: block.page }, options.maxTokens)) builder.add(piece);
  };
  let openHeading: Block | undefined;

  let page: number | undefined;
  for (const block of document.blocks) {
    // A new page starts a new chunk, without overlap: a chunk's text is all on the page it cites.
    if (block.page !== undefined && page !== undefined && block.page !== page) builder.finishSection();
    page = block.page ?? page;
    if (block.kind === 'heading') {
      const level = block.level ?? 1;
      // A heading with nothing under it (not even a subsection) would be lost: it is its own text.
      if (openHeading !== undefined && !builder.sectionHasText() && level <= (openHeading.level ?? 1)) addHeadingAsText(openHeading);
      while (headings.length > 0 && headings[headings.length - 1]!.level >= level) headings.pop();
      headings.push({ level, text: headingLabel(block.text) });
      builder.startSection(headings.map((heading) => heading.text).join(' > '));
      openHeading = block;
      continue;
    }
    for (const piece of blockPieces(block, options.maxTokens)) builder.add(piece);
  }
  if (openHeading !== undefined && !builder.sectionHasText()) addHeadingAsText(openHeading);
  builder.finishSection();
  return builder.chunks;
}

// A block cut into the pieces chunks are packed from: sentences of a paragraph, lines of a table,
// list or code block. A piece over the budget is cut again into words, and a word over the budget
// (a long URL, base64) into slices. Pieces are small so that chunks fill close to their budget and
// can overlap by whole sentences.
import type { Block } from './document.js';
import { countText, countTokens, tokensAddedByJoin, type CountedText } from './tokens.js';

export interface Piece {
  text: string;
  /** The tokens packing counts the piece for. */
  tokens: number;
  /** The piece's exact count, and what joining it to its neighbours needs (tokensAddedByJoin). */
  counted: CountedText;
  /** What goes between this piece and the one before it in the same chunk. */
  joiner: '\n\n' | '\n' | ' ' | '';
  page: number | undefined;
}

const TERMINATORS = new Set(['.', '!', '?', '…']);
const CLOSERS = new Set(['"', "'", '”', '’', ')', ']']);
const CJK_STOPS = new Set(['。', '！', '？']);

/** Characters a sentence split looked at: tests check it stays within twice the paragraph's length. */
export interface ScanWork {
  steps: number;
}

/** Whether the space at `at` ends a sentence: it follows ., !, ? or …, and any closing quotes or brackets. */
function endsSentence(text: string, at: number, work: ScanWork): boolean {
  let i = at - 1;
  // The closers looked at here come right before this space, so no character is looked at twice.
  while (i >= 0 && CLOSERS.has(text[i]!)) i--;
  work.steps += at - i;
  return i >= 0 && TERMINATORS.has(text[i]!);
}

/**
 * The sentences of a paragraph: cut at a space after ., !, ? or … (and any closing quotes or
 * brackets), and after CJK full stops. One pass: a pattern looking behind each position for the
 * closers took O(n²) on a long run of them (seconds for 80,000 ")").
 */
export function splitSentences(paragraph: string, work: ScanWork = { steps: 0 }): string[] {
  const text = paragraph.replace(/\s+/g, ' ').trim();
  const sentences: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    work.steps++;
    if (text[i] === ' ' && endsSentence(text, i, work)) {
      sentences.push(text.slice(start, i));
      start = i + 1;
    } else if (i > start && CJK_STOPS.has(text[i - 1]!)) {
      sentences.push(text.slice(start, i));
      start = i;
    }
  }
  sentences.push(text.slice(start));
  return sentences.filter((sentence) => sentence !== '');
}

/** Slices of a word, each within the budget (a character can be several tokens). */
function sliceWord(word: string, maxTokens: number): string[] {
  const chars = Array.from(word);
  const slices: string[] = [];
  let start = 0;
  while (start < chars.length) {
    let length = Math.min(maxTokens, chars.length - start);
    let slice = chars.slice(start, start + length).join('');
    while (length > 1 && countTokens(slice) > maxTokens) {
      length = Math.ceil(length / 2);
      slice = chars.slice(start, start + length).join('');
    }
    slices.push(slice);
    start += length;
  }
  return slices;
}

function pushWithinBudget(pieces: Piece[], text: string, joiner: Piece['joiner'], page: number | undefined, maxTokens: number): void {
  const counted = countText(text);
  if (counted.tokens <= maxTokens) {
    pieces.push({ text, tokens: counted.tokens, counted, joiner, page });
    return;
  }
  const words = text.split(/\s+/).filter((word) => word !== '');
  if (words.length > 1) {
    words.forEach((word, i) => pushWithinBudget(pieces, word, i === 0 ? joiner : ' ', page, maxTokens));
    return;
  }
  sliceWord(text, maxTokens).forEach((slice, i) => {
    const counted = countText(slice);
    pieces.push({ text: slice, tokens: counted.tokens, counted, joiner: i === 0 ? joiner : '', page });
  });
}

export function blockPieces(block: Block, maxTokens: number): Piece[] {
  const units =
    block.kind === 'paragraph' ? splitSentences(block.text) : block.text.split('\n').filter((line) => line.trim() !== '');
  const joiner = block.kind === 'paragraph' ? ' ' : '\n';
  const pieces: Piece[] = [];
  units.forEach((unit, i) => pushWithinBudget(pieces, unit, i === 0 ? '\n\n' : joiner, block.page, maxTokens));
  return pieces;
}

/** Tokens a joiner adds between two pieces: a line break is a token of its own, a space merges. */
export function joinerTokens(joiner: Piece['joiner']): number {
  return joiner === '\n\n' || joiner === '\n' ? 1 : 0;
}

/**
 * The exact count of the pieces joined, from their own counts and a look at each join; undefined when
 * a join cannot be counted alone (then count the joined text).
 */
export function joinedCount(pieces: readonly Piece[]): number | undefined {
  let total = pieces[0]?.counted.tokens ?? 0;
  for (let i = 1; i < pieces.length; i++) {
    const piece = pieces[i]!;
    const added = tokensAddedByJoin(pieces[i - 1]!.counted, piece.joiner, piece.counted);
    if (added === undefined) return undefined;
    total += piece.counted.tokens + added;
  }
  return total;
}

export function joinPieces(pieces: readonly Piece[]): string {
  return pieces.map((piece, i) => (i === 0 ? piece.text : piece.joiner + piece.text)).join('');
}

// Markdown → blocks through marked's lexer (a CommonMark + GFM parser), so that headings, fences,
// lists and tables are recognised as a real parser sees them. Inline syntax is reduced to its text:
// "**bold** [link](url)" reads "bold link".
import { Lexer, type MarkedToken, type Token, type Tokens } from 'marked';
import { collapseLines, collapseWhitespace, formatRecord, type BlockList } from '../block-list.js';
import { addHtmlBlocks } from './html-blocks.js';

function inlineText(tokens: readonly Token[] | undefined): string {
  let text = '';
  for (const token of (tokens ?? []) as MarkedToken[]) {
    switch (token.type) {
      case 'text':
        text += token.tokens ? inlineText(token.tokens) : token.text;
        break;
      case 'strong':
      case 'em':
      case 'del':
      case 'link':
        text += inlineText(token.tokens);
        break;
      case 'escape':
      case 'codespan':
      case 'image':
        text += token.text;
        break;
      case 'br':
        text += '\n';
        break;
      default:
        // inline HTML tags and checkboxes carry no text of their own
        break;
    }
  }
  return text;
}

function listLines(list: Tokens.List, depth: number): string[] {
  const lines: string[] = [];
  let number = typeof list.start === 'number' ? list.start : 1;
  for (const item of list.items) {
    const nested = item.tokens.filter((token): token is Tokens.List => token.type === 'list');
    const own = collapseWhitespace(
      item.tokens
        .filter((token) => token.type !== 'list')
        .map((token) => ('tokens' in token && token.tokens ? inlineText(token.tokens) : ((token as { text?: string }).text ?? '')))
        .join(' '),
    );
    const marker = list.ordered ? `${number++}.` : '-';
    const task = item.task ? (item.checked ? '[x] ' : '[ ] ') : '';
    if (own !== '') lines.push(`${'  '.repeat(depth)}${marker} ${task}${own}`);
    for (const sub of nested) lines.push(...listLines(sub, depth + 1));
  }
  return lines;
}

function addTokens(tokens: readonly Token[], out: BlockList): void {
  for (const token of tokens as MarkedToken[]) {
    switch (token.type) {
      case 'heading':
        out.add('heading', collapseWhitespace(inlineText(token.tokens)), { level: token.depth });
        break;
      case 'paragraph':
      case 'text':
        out.add('paragraph', collapseLines(inlineText(token.tokens ?? [{ type: 'text', raw: token.text, text: token.text }])));
        break;
      case 'code':
        out.add('code', token.text);
        break;
      case 'list':
        out.add('list', listLines(token, 0).join('\n'));
        break;
      case 'table': {
        const headers = token.header.map((cell) => inlineText(cell.tokens));
        out.add('table', token.rows.map((row) => formatRecord(headers, row.map((cell) => inlineText(cell.tokens)))).join('\n'));
        break;
      }
      case 'blockquote':
        addTokens(token.tokens, out);
        break;
      case 'html':
        addHtmlBlocks(token.text, out);
        break;
      default:
        // space, hr, link definitions: no text
        break;
    }
  }
}

// marked's tokens take some 40 times the text in memory: a long document is lexed in segments.
const SEGMENT_CHARS = 256 * 1024;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The text cut at blank lines outside fenced code, in segments of about SEGMENT_CHARS. A blank line
 * ends nearly every Markdown block; what a cut can split (a loose list, a reference link whose
 * definition is in another segment) loses numbering or a URL, never text.
 */
function* segments(text: string): Generator<string> {
  let start = 0;
  let fence: string | undefined;
  for (let lineStart = 0; lineStart < text.length; ) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline + 1;
    const line = text.slice(lineStart, lineEnd);
    const marker = FENCE.exec(line)?.[1];
    if (marker !== undefined && (fence === undefined || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === undefined ? marker : undefined;
    }
    if (fence === undefined && line.trim() === '' && lineEnd - start >= SEGMENT_CHARS) {
      yield text.slice(start, lineEnd);
      start = lineEnd;
    }
    lineStart = lineEnd;
  }
  if (start < text.length) yield text.slice(start);
}

export function extractMarkdown(text: string, out: BlockList): { title: string | undefined } {
  for (const segment of segments(text)) addTokens(Lexer.lex(segment, { gfm: true }), out);
  const title = out.blocks.find((block) => block.kind === 'heading' && block.level === 1)?.text;
  return { title };
}

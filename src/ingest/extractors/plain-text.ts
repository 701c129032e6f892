// Plain text: paragraphs are separated by blank lines; the lines inside a paragraph are kept.
import { collapseLines, type BlockList } from '../block-list.js';

export function extractPlainText(text: string, out: BlockList): { title: undefined } {
  for (const paragraph of text.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n/)) out.add('paragraph', collapseLines(paragraph));
  return { title: undefined };
}

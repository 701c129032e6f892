import type { BlockList } from '../block-list.js';
import { addHtmlBlocks } from './html-blocks.js';

export function extractHtml(text: string, out: BlockList): { title: string | undefined } {
  const { title } = addHtmlBlocks(text, out);
  return { title: title ?? out.blocks.find((block) => block.kind === 'heading' && block.level === 1)?.text };
}

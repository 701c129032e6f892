// What the model reads of a search: numbered results it can cite by URL, each with its snippet and,
// with fetch_pages, the start of the page's text (or why the page was not read). The whole stays
// within the output cap: results first, the pages' text sharing what room is left.
import { cutText as cut } from '../numbered-text.js';
import type { SearchHit } from './provider.js';
import type { PageText } from './page-text.js';

/** Most characters of one page's text. */
export const PAGE_CHARACTERS = 2_000;

function hitLines(hit: SearchHit, number: number): string {
  return [`[${number}] ${hit.title}`, `URL: ${hit.url}`, ...(hit.snippet ? [hit.snippet] : [])].join('\n');
}

export function resultsText(provider: string, query: string, hits: SearchHit[], pages: PageText[], limit: number): string {
  if (hits.length === 0) return cut(`No web results for "${query}" (${provider}).`, limit);
  const head = `Web results for "${query}" (${provider}, ${hits.length} result${hits.length === 1 ? '' : 's'}). Cite a result by its URL.`;
  const blocks = hits.map((hit, index) => hitLines(hit, index + 1));
  const fixed = head.length + blocks.reduce((sum, block) => sum + block.length + 2, 0);
  // The pages' share of the room left, evenly; a page's line has its label besides its text.
  const pageRoom = pages.length === 0 ? 0 : Math.min(PAGE_CHARACTERS, Math.floor((limit - fixed) / pages.length) - 30);
  pages.forEach((page, index) => {
    if (page.ok && pageRoom > 50) blocks[index] += `\nPage text: ${cut(page.text, pageRoom)}`;
    else if (!page.ok) blocks[index] += `\nPage not read: ${cut(page.reason, 200)}`;
  });
  return cut([head, ...blocks].join('\n\n'), limit);
}

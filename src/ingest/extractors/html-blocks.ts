// HTML → blocks, for HTML documents and for the HTML that DOCX (mammoth) and Markdown (raw HTML
// blocks) produce. Headings, lists, tables and preformatted text become blocks of their kind; other
// text becomes paragraphs at block-element boundaries. Scripts, styles, navigation, forms and
// hidden elements are dropped: they are page furniture, not content.
import { parseDocument } from 'htmlparser2';
import { isTag, isText, type AnyNode, type Element } from 'domhandler';
import { collapseLines, collapseWhitespace, formatRecord, type BlockList } from '../block-list.js';

const SKIPPED = new Set(
  ('head script style noscript template nav aside footer form button select option textarea svg math canvas iframe ' +
    'object embed audio video map dialog').split(' '),
);
const BLOCK_ELEMENTS = new Set(
  ('address article blockquote body caption center dd details div dl dt fieldset figcaption figure header hgroup hr html ' +
    'legend li main p section summary td th tr').split(' '),
);
const HEADING_LEVELS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };

function skipped(element: Element): boolean {
  return SKIPPED.has(element.name) || 'hidden' in element.attribs || element.attribs['aria-hidden'] === 'true';
}

function elementChildren(element: Element, names: readonly string[]): Element[] {
  return element.children.filter((child): child is Element => isTag(child) && names.includes(child.name));
}

/** The text under some nodes; block boundaries and <br> become line breaks, nothing is collapsed. */
function rawText(nodes: readonly AnyNode[]): string {
  let text = '';
  for (const node of nodes) {
    if (isText(node)) text += node.data;
    else if (isTag(node) && !skipped(node)) {
      if (node.name === 'br') text += '\n';
      else if (BLOCK_ELEMENTS.has(node.name) || node.name in HEADING_LEVELS) text += `\n${rawText(node.children)}\n`;
      else text += rawText(node.children);
    }
  }
  return text;
}

function lineText(nodes: readonly AnyNode[]): string {
  return collapseWhitespace(rawText(nodes));
}

/** "- item" lines, nested lists indented, ordered lists numbered. */
function listLines(list: Element, depth: number): string[] {
  const lines: string[] = [];
  let number = Number(list.attribs.start ?? 1) || 1;
  for (const item of elementChildren(list, ['li'])) {
    const nested = item.children.filter((child): child is Element => isTag(child) && (child.name === 'ul' || child.name === 'ol'));
    const own = lineText(item.children.filter((child) => !nested.includes(child as Element)));
    if (own !== '') lines.push(`${'  '.repeat(depth)}${list.name === 'ol' ? `${number++}.` : '-'} ${own}`);
    for (const sub of nested) lines.push(...listLines(sub, depth + 1));
  }
  return lines;
}

/** One line per row; with a header row, each line names its columns (see formatRecord). */
function tableLines(table: Element): string[] {
  const rows: Array<{ cells: Element[]; inHead: boolean }> = [];
  const collect = (parent: Element, inHead: boolean) => {
    for (const child of parent.children) {
      if (!isTag(child)) continue;
      if (child.name === 'tr') rows.push({ cells: elementChildren(child, ['td', 'th']), inHead });
      else if (child.name === 'thead' || child.name === 'tbody' || child.name === 'tfoot') collect(child, child.name === 'thead');
    }
  };
  collect(table, false);
  const first = rows[0];
  const hasHeader = first !== undefined && rows.length > 1 && (first.inHead || first.cells.every((cell) => cell.name === 'th'));
  const headers = hasHeader ? first.cells.map((cell) => lineText(cell.children)) : [];
  return rows.slice(hasHeader ? 1 : 0).map(({ cells }) => {
    const values = cells.map((cell) => lineText(cell.children));
    return hasHeader ? formatRecord(headers, values) : values.filter((value) => value !== '').join(' | ');
  });
}

class HtmlBlockWalker {
  private inline = '';

  constructor(private readonly out: BlockList) {}

  walk(nodes: readonly AnyNode[]): void {
    for (const node of nodes) {
      if (isText(node)) {
        this.inline += node.data;
        continue;
      }
      if (!isTag(node) || skipped(node)) continue;
      const level = HEADING_LEVELS[node.name];
      if (level !== undefined) {
        this.flush();
        this.out.add('heading', lineText(node.children), { level });
      } else if (node.name === 'pre') {
        this.flush();
        this.out.add('code', rawText(node.children).replace(/^\n+|\s+$/g, ''));
      } else if (node.name === 'ul' || node.name === 'ol') {
        this.flush();
        this.out.add('list', listLines(node, 0).join('\n'));
      } else if (node.name === 'table') {
        this.flush();
        this.out.add('table', tableLines(node).join('\n'));
      } else if (node.name === 'br') {
        this.inline += '\n';
      } else if (BLOCK_ELEMENTS.has(node.name)) {
        this.flush();
        this.walk(node.children);
        this.flush();
      } else {
        this.walk(node.children);
      }
    }
  }

  flush(): void {
    const text = collapseLines(this.inline);
    this.inline = '';
    this.out.add('paragraph', text);
  }
}

function findElement(nodes: readonly AnyNode[], name: string): Element | undefined {
  for (const node of nodes) {
    if (!isTag(node)) continue;
    if (node.name === name) return node;
    const found = findElement(node.children, name);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Adds the blocks of an HTML text; answers the text of its <title>, if any. */
export function addHtmlBlocks(html: string, out: BlockList): { title: string | undefined } {
  // lowerCaseTags keeps element names comparable whatever the source's case.
  const document = parseDocument(html, { lowerCaseTags: true, lowerCaseAttributeNames: true });
  const walker = new HtmlBlockWalker(out);
  walker.walk(document.children);
  walker.flush();
  const titleElement = findElement(document.children, 'title');
  const title = titleElement === undefined ? '' : collapseWhitespace(rawText(titleElement.children));
  return { title: title === '' ? undefined : title };
}

// HTML → blocks, for HTML documents and for the HTML that DOCX (mammoth) and Markdown (raw HTML
// blocks) produce. The page is read as a stream of parser events (htmlparser2, the parser under
// cheerio), never built into a tree: a 50 MB page would take a gigabyte as a DOM.
// Headings, lists, tables and preformatted text become blocks of their kind; other text becomes
// paragraphs at block-element boundaries. Scripts, styles, navigation, forms and hidden elements
// are dropped: they are page furniture, not content.
import { Parser } from 'htmlparser2';
import { collapseLines, collapseWhitespace, type BlockList } from '../block-list.js';
import { ListBuilder, TableBuilder } from './html-structures.js';

const SKIPPED = new Set(
  ('head script style noscript template nav aside footer form button select option textarea svg math canvas iframe ' +
    'object embed audio video map dialog').split(' '),
);
const BLOCK_ELEMENTS = new Set(
  ('address article blockquote body caption center dd details div dl dt fieldset figcaption figure header hgroup hr html ' +
    'legend li main p section summary td th tr').split(' '),
);
const HEADING_LEVELS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };

const isBoundary = (name: string) => BLOCK_ELEMENTS.has(name) || name in HEADING_LEVELS;

class HtmlBlockCollector {
  title: string | undefined;
  private titleText: string | undefined;
  /** Depth inside an element whose content is dropped; 0 outside. */
  private skipDepth = 0;
  private inline = '';
  private heading: { level: number; text: string } | undefined;
  private pre: string | undefined;
  private list: ListBuilder | undefined;
  private table: TableBuilder | undefined;
  /** Tables inside a table's cells are read as the cell's text. */
  private tableDepth = 0;

  constructor(private readonly out: BlockList) {}

  onopentag(name: string, attributes: Record<string, string>): void {
    if (name === 'title' && this.title === undefined) this.titleText = '';
    if (this.skipDepth > 0) {
      this.skipDepth++;
      return;
    }
    if (SKIPPED.has(name) || 'hidden' in attributes || attributes['aria-hidden'] === 'true') {
      this.skipDepth = 1;
      return;
    }
    if (name === 'br') return this.append('\n');
    if (this.table !== undefined) return this.openInTable(name);
    if (this.list !== undefined) {
      if (name === 'ul' || name === 'ol') this.list.openList(name === 'ol', Number(attributes.start ?? 1) || 1);
      else if (name === 'li') this.list.openItem();
      else if (isBoundary(name)) this.append(' ');
      return;
    }
    if (this.heading !== undefined || this.pre !== undefined) {
      if (isBoundary(name)) this.append(this.pre !== undefined ? '\n' : ' ');
      return;
    }
    const level = HEADING_LEVELS[name];
    if (level !== undefined) {
      this.flush();
      this.heading = { level, text: '' };
    } else if (name === 'pre') {
      this.flush();
      this.pre = '';
    } else if (name === 'ul' || name === 'ol') {
      this.flush();
      this.list = new ListBuilder();
      this.list.openList(name === 'ol', Number(attributes.start ?? 1) || 1);
    } else if (name === 'table') {
      this.flush();
      this.table = new TableBuilder();
      this.tableDepth = 1;
    } else if (BLOCK_ELEMENTS.has(name)) {
      this.flush();
    }
  }

  private openInTable(name: string): void {
    const table = this.table!;
    if (name === 'table') this.tableDepth++;
    else if (this.tableDepth > 1) {
      if (isBoundary(name)) this.append(' ');
    } else if (name === 'tr') table.openRow();
    else if (name === 'td' || name === 'th') table.openCell(name === 'th');
    else if (name === 'thead') table.inHead = true;
    else if (isBoundary(name)) this.append(' ');
  }

  ontext(text: string): void {
    if (this.titleText !== undefined) this.titleText += text;
    else if (this.skipDepth === 0) this.append(text);
  }

  onclosetag(name: string): void {
    if (name === 'title' && this.titleText !== undefined) {
      this.title = collapseWhitespace(this.titleText) || undefined;
      this.titleText = undefined;
    }
    if (this.skipDepth > 0) {
      this.skipDepth--;
      return;
    }
    if (this.table !== undefined) return this.closeInTable(name);
    if (this.list !== undefined) {
      if ((name === 'ul' || name === 'ol') && this.list.closeList()) {
        this.out.add('list', this.list.lines.join('\n'));
        this.list = undefined;
      } else if (name === 'li') this.list.closeItem();
      else if (isBoundary(name)) this.append(' ');
      return;
    }
    if (this.heading !== undefined && name in HEADING_LEVELS) {
      this.out.add('heading', collapseWhitespace(this.heading.text), { level: this.heading.level });
      this.heading = undefined;
    } else if (this.pre !== undefined && name === 'pre') {
      this.out.add('code', this.pre.replace(/^\n+|\s+$/g, ''));
      this.pre = undefined;
    } else if (this.heading !== undefined || this.pre !== undefined) {
      if (isBoundary(name)) this.append(this.pre !== undefined ? '\n' : ' ');
    } else if (BLOCK_ELEMENTS.has(name)) {
      this.flush();
    }
  }

  private closeInTable(name: string): void {
    const table = this.table!;
    if (name === 'table' && --this.tableDepth === 0) {
      this.out.add('table', table.lines().join('\n'));
      this.table = undefined;
    } else if (this.tableDepth > 1) {
      if (isBoundary(name)) this.append(' ');
    } else if (name === 'tr') table.closeRow();
    else if (name === 'td' || name === 'th') table.closeCell();
    else if (name === 'thead') table.inHead = false;
    else if (isBoundary(name)) this.append(' ');
  }

  /** Text goes to whatever is being built: preformatted text, heading, table cell, list item, paragraph. */
  private append(text: string): void {
    if (this.pre !== undefined) this.pre += text;
    else if (this.heading !== undefined) this.heading.text += text;
    else if (this.table !== undefined) this.table.text(text);
    else if (this.list !== undefined) this.list.text(text);
    else this.inline += text;
  }

  flush(): void {
    const text = collapseLines(this.inline);
    this.inline = '';
    this.out.add('paragraph', text);
  }
}

/** Adds the blocks of an HTML text; answers the text of its <title>, if any. */
export function addHtmlBlocks(html: string, out: BlockList): { title: string | undefined } {
  const collector = new HtmlBlockCollector(out);
  const parser = new Parser(
    {
      onopentag: (name, attributes) => collector.onopentag(name, attributes),
      ontext: (text) => collector.ontext(text),
      onclosetag: (name) => collector.onclosetag(name),
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  collector.flush();
  return { title: collector.title };
}

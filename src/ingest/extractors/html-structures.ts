// Lists and tables of an HTML page, built from parser events as they come (see html-blocks.ts).
import { collapseWhitespace, formatRecord } from '../block-list.js';

interface ListLevel {
  ordered: boolean;
  next: number;
  /** The item open at this level: its marker, the text not yet written, and whether a line was. */
  item: { marker: string; text: string; written: boolean } | undefined;
}

/** "- item" lines; nested lists indented under their item, ordered lists numbered. */
export class ListBuilder {
  readonly lines: string[] = [];
  private readonly levels: ListLevel[] = [];

  openList(ordered: boolean, start: number): void {
    this.writeItem(); // the parent item's text goes before the nested items
    this.levels.push({ ordered, next: start, item: undefined });
  }

  /** Closes a list; answers whether it was the outermost one. */
  closeList(): boolean {
    this.writeItem();
    this.levels.pop();
    return this.levels.length === 0;
  }

  openItem(): void {
    const level = this.levels.at(-1);
    if (level === undefined) return;
    this.writeItem();
    level.item = { marker: level.ordered ? `${level.next++}.` : '-', text: '', written: false };
  }

  closeItem(): void {
    this.writeItem();
    const level = this.levels.at(-1);
    if (level !== undefined) level.item = undefined;
  }

  text(text: string): void {
    const item = this.levels.at(-1)?.item;
    if (item !== undefined) item.text += text;
  }

  private writeItem(): void {
    const depth = this.levels.length - 1;
    const item = this.levels[depth]?.item;
    if (item === undefined) return;
    const text = collapseWhitespace(item.text);
    item.text = '';
    if (text === '') return;
    // Text after a nested list continues the item, under it rather than as a new one.
    const marker = item.written ? ' '.repeat(item.marker.length) : item.marker;
    this.lines.push(`${'  '.repeat(depth)}${marker} ${text}`);
    item.written = true;
  }
}

interface Row {
  cells: Array<{ header: boolean; text: string }>;
  inHead: boolean;
}

/** One line per row; with a header row, each line names its columns (see formatRecord). */
export class TableBuilder {
  private readonly rows: Row[] = [];
  private row: Row | undefined;
  private cell: { header: boolean; text: string } | undefined;
  inHead = false;

  openRow(): void {
    this.closeRow();
    this.row = { cells: [], inHead: this.inHead };
  }

  closeRow(): void {
    this.closeCell();
    if (this.row !== undefined) this.rows.push(this.row);
    this.row = undefined;
  }

  openCell(header: boolean): void {
    this.closeCell();
    if (this.row === undefined) this.openRow();
    this.cell = { header, text: '' };
  }

  closeCell(): void {
    if (this.cell === undefined) return;
    this.row!.cells.push({ header: this.cell.header, text: collapseWhitespace(this.cell.text) });
    this.cell = undefined;
  }

  /** Text outside any cell (captions, stray text) is left out. */
  text(text: string): void {
    if (this.cell !== undefined) this.cell.text += text;
  }

  lines(): string[] {
    this.closeRow();
    const first = this.rows[0];
    const hasHeader = first !== undefined && this.rows.length > 1 && (first.inHead || first.cells.every((cell) => cell.header));
    const headers = hasHeader ? first.cells.map((cell) => cell.text) : [];
    return this.rows.slice(hasHeader ? 1 : 0).map(({ cells }) => {
      const values = cells.map((cell) => cell.text);
      return hasHeader ? formatRecord(headers, values) : values.filter((value) => value !== '').join(' | ');
    });
  }
}

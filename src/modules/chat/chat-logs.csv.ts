// CSV as RFC 4180 writes it (CRLF line ends; a cell holding a quote, a separator or a line break is
// quoted, its quotes doubled), with cells that a spreadsheet would run as a formula neutralised, as
// OWASP's CSV injection guidance asks: a text cell that begins with =, +, -, @, a tab or a carriage
// return, also after leading separators (`,` or `;`, the separator of many locales) and spaces, gets a
// leading apostrophe and is quoted. Leading separators count because a spreadsheet that splits the
// cell at them (`;=cmd|…` in a `;` locale) would start a cell with the formula; quoting keeps the cell
// whole, so `;` is quoted wherever it appears, as `,` is.
const FORMULA_START = /^[\s,;]*[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",;\r\n]/;

export type CsvValue = string | number | boolean | null;

const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;

export function csvCell(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  if (FORMULA_START.test(value)) return quoted(`'${value}`);
  return NEEDS_QUOTES.test(value) ? quoted(value) : value;
}

export function csvRow(values: CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

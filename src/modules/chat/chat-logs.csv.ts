// CSV as RFC 4180 writes it (CRLF line ends; a cell holding a quote, comma or line break is quoted,
// its quotes doubled), with cells that a spreadsheet would run as a formula neutralised: a text cell
// beginning with =, +, -, @, a tab or a carriage return gets a leading apostrophe.
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export type CsvValue = string | number | boolean | null;

export function csvCell(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

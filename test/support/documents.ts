// Small but real documents for the extraction tests, built in code so that the fixtures say what
// they contain: a PDF with one text stream per page (correct xref offsets), and a DOCX zipped with
// fflate around a hand-written word/document.xml.
import { strToU8, zipSync } from 'fflate';

/** Escapes a string for a PDF literal string: (, ) and \ are the special characters. */
function pdfString(text: string): string {
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** A line of a PDF page: its text, font size (12 by default) and extra space above it in points. */
export type PdfLine = string | { text: string; size?: number; spaceBefore?: number };

/** A PDF whose pages show the given lines in Helvetica, top to bottom, one text object per line. */
export function makePdf(pages: PdfLine[][], options: { title?: string } = {}): Buffer {
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 4 + i * 2);
  objects[1] = `<< /Type /Catalog /Pages 2 0 R >>`;
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = `<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>`;
  pages.forEach((lines, i) => {
    const pageId = pageIds[i]!;
    let y = 740;
    const operators = lines
      .map((line) => {
        const { text, size = 12, spaceBefore = 0 } = typeof line === 'string' ? { text: line } : line;
        y -= size * 1.2 + spaceBefore;
        return `BT /F1 ${size} Tf 72 ${y} Td ${pdfString(text)} Tj ET`;
      })
      .join('\n');
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ` +
      `/Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${Buffer.byteLength(operators, 'latin1')} >>\nstream\n${operators}\nendstream`;
  });
  const infoId = objects.length;
  if (options.title !== undefined) objects[infoId] = `<< /Title ${pdfString(options.title)} >>`;

  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(body, 'latin1');
    body += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xrefOffset = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) body += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  const info = options.title !== undefined ? ` /Info ${infoId} 0 R` : '';
  body += `trailer\n<< /Size ${objects.length} /Root 1 0 R${info} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const WORD_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** A heading (level 1 by default), a paragraph (with a Word style such as Title), or a table. */
export type DocxPart = { heading: string; level?: number } | { paragraph: string; style?: string } | { table: string[][] };

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function docxParagraph(text: string, style?: string): string {
  const properties = style === undefined ? '' : `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>`;
  return `<w:p>${properties}<w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;
}

function docxPart(part: DocxPart): string {
  if ('heading' in part) return docxParagraph(part.heading, `Heading${part.level ?? 1}`);
  if ('paragraph' in part) return docxParagraph(part.paragraph, part.style);
  const rows = part.table.map((row) => `<w:tr>${row.map((cell) => `<w:tc>${docxParagraph(cell)}</w:tc>`).join('')}</w:tr>`);
  return `<w:tbl>${rows.join('')}</w:tbl>`;
}

/** A DOCX holding the given headings, paragraphs and tables. */
export function makeDocx(parts: DocxPart[], extraFiles: Record<string, string> = {}): Buffer {
  const body = parts.map(docxPart).join('');
  const files: Record<string, string> = {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
      '</Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
      '</Relationships>',
    'word/document.xml':
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
      `<w:document xmlns:w="${WORD_NS}"><w:body>${body}</w:body></w:document>`,
    ...extraFiles,
  };
  return Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)]))));
}

/** A ZIP archive with the given text files (not a DOCX unless it holds word/document.xml). */
export function makeZip(files: Record<string, string>): Buffer {
  return Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)]))));
}

/** The first bytes of a real PNG (signature and IHDR chunk). */
export const PNG_BYTES = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f4b5d70000000049454e44ae426082',
  'hex',
);

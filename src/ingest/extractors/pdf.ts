// PDF → blocks, page by page, with pdf.js (through unpdf, which bundles a build that needs no
// worker, no canvas and no network). A PDF has no paragraphs, only positioned text: lines are
// rebuilt from pdf.js's end-of-line marks, paragraphs from vertical gaps wider than a line, and
// headings from lines set clearly larger than the page's body text. Every block keeps its page.
// What the file's streams unpack to is measured first: pdf.js would inflate a bomb whole.
import { getDocumentProxy } from 'unpdf';
import { collapseWhitespace, type BlockList } from '../block-list.js';
import { ExtractionFailed, type ExtractionLimits } from '../document.js';
import { checkPdfUnpackedSize } from '../pdf-unpacked-size.js';

interface Line {
  text: string;
  /** baseline, in points from the bottom of the page */
  y: number;
  /** font size, in points */
  size: number;
}

type ContentItem = { str: string; hasEOL: boolean; height: number; transform: number[] } | { type: string };

function pageLines(items: readonly ContentItem[]): Line[] {
  const lines: Line[] = [];
  let current: Line = { text: '', y: 0, size: 0 };
  for (const item of items) {
    if (!('str' in item)) continue;
    if (current.text === '') current.y = item.transform[5] ?? 0;
    current.text += item.str;
    current.size = Math.max(current.size, item.height);
    if (item.hasEOL) {
      lines.push(current);
      current = { text: '', y: 0, size: 0 };
    }
  }
  if (current.text !== '') lines.push(current);
  return lines;
}

/** The font size most of the page's text is set in. */
function bodySize(lines: readonly Line[]): number {
  const weight = new Map<number, number>();
  for (const line of lines) weight.set(line.size, (weight.get(line.size) ?? 0) + line.text.length);
  let best = 0;
  let bestWeight = -1;
  for (const [size, chars] of weight) {
    if (chars > bestWeight) [best, bestWeight] = [size, chars];
  }
  return best;
}

function headingLevel(line: Line, text: string, body: number): number | undefined {
  if (body <= 0 || text.length > 120 || /[.,;:]$/.test(text)) return undefined;
  if (line.size >= body * 1.6) return 1;
  if (line.size >= body * 1.25) return 2;
  return undefined;
}

/** Joins a line to its paragraph; a word hyphenated across the break is made whole again. */
function joinLine(paragraph: string, line: string): string {
  if (paragraph === '') return line;
  if (/\p{Ll}-$/u.test(paragraph) && /^\p{Ll}/u.test(line)) return paragraph.slice(0, -1) + line;
  return `${paragraph} ${line}`;
}

function addPage(lines: readonly Line[], page: number, out: BlockList): void {
  const body = bodySize(lines);
  let paragraph = '';
  let previous: Line | undefined;
  const flush = () => {
    out.add('paragraph', paragraph, { page });
    paragraph = '';
  };
  for (const line of lines) {
    const text = collapseWhitespace(line.text);
    if (text === '') {
      flush();
      continue;
    }
    const level = lines.length > 1 ? headingLevel(line, text, body) : undefined;
    if (level !== undefined) {
      flush();
      out.add('heading', text, { level, page });
      previous = undefined;
      continue;
    }
    if (previous !== undefined && Math.abs(previous.y - line.y) > 1.6 * Math.max(previous.size, line.size, 1)) flush();
    paragraph = joinLine(paragraph, text);
    previous = line;
  }
  flush();
}

async function openPdf(bytes: Buffer) {
  try {
    // A copy: pdf.js takes over (detaches) the buffer it is given.
    return await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, useSystemFonts: false, verbosity: 0 });
  } catch (error) {
    if ((error as Error).name === 'PasswordException') throw new ExtractionFailed('encrypted', 'The PDF is protected by a password');
    throw Object.assign(new ExtractionFailed('unreadable', 'The PDF could not be read: it is damaged or not a PDF'), { cause: error });
  }
}

export async function extractPdf(
  bytes: Buffer,
  out: BlockList,
  limits: ExtractionLimits,
): Promise<{ title: string | undefined; pageCount: number }> {
  await checkPdfUnpackedSize(bytes, limits.maxPdfUnpackedBytes);
  const pdf = await openPdf(bytes);
  try {
    if (pdf.numPages > limits.maxPdfPages) {
      throw new ExtractionFailed('too_large', `The PDF has ${pdf.numPages} pages; the limit is ${limits.maxPdfPages}`);
    }
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      addPage(pageLines(content.items as ContentItem[]), number, out);
      page.cleanup();
    }
    const { info } = await pdf.getMetadata().catch(() => ({ info: {} }));
    const title = collapseWhitespace(String((info as { Title?: unknown }).Title ?? ''));
    return { title: title === '' ? undefined : title, pageCount: pdf.numPages };
  } finally {
    await pdf.destroy();
  }
}

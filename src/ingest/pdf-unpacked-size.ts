// Refuses a PDF whose streams unpack past the limit before pdf.js opens it: pdf.js inflates a
// content stream whole into memory (typed arrays, which a thread's heap limit does not bound), so a
// 1 MB file holding a gigabyte of zeros must be stopped here. Streams are found by their `stream`
// keyword rather than through the cross-reference table, which a file can falsify; each is
// measured to the end of its own compressed data, never to a /Length the file could under-state.
import { ExtractionFailed } from './document.js';
import { pdfFilter, unpackedSize, type PdfFilter } from './pdf-filter-sizes.js';

/** How far before `stream` its dictionary is looked for; a stream dictionary is a few hundred bytes. */
const DICTIONARY_WINDOW = 8 * 1024;

interface PdfStream {
  dataStart: number;
  /** undefined: the dictionary could not be read (an indirect /Filter, or none found). */
  filters: PdfFilter[] | undefined;
  earlyChange: number;
  /** Image XObjects are never decoded when text is extracted. */
  isImage: boolean;
}

function streamDictionary(bytes: Buffer, keyword: number): string | undefined {
  const before = bytes.toString('latin1', Math.max(0, keyword - DICTIONARY_WINDOW), keyword);
  const opening = before.lastIndexOf('obj');
  return opening < 0 ? undefined : before.slice(opening + 3);
}

function readFilters(dictionary: string): PdfFilter[] | undefined {
  if (!/\/Filter\b/.test(dictionary)) return [];
  const direct = /\/Filter\s*(\/[^\s/[\]<>()]+|\[[^\]]*\])/.exec(dictionary);
  if (direct === null) return undefined;
  return [...direct[1]!.matchAll(/\/([^\s/[\]<>()]+)/g)].map((match) => pdfFilter(match[1]!));
}

function* pdfStreams(bytes: Buffer): Generator<PdfStream> {
  for (let at = bytes.indexOf('stream', 0, 'latin1'); at >= 0; at = bytes.indexOf('stream', at + 6, 'latin1')) {
    if (at >= 3 && bytes.toString('latin1', at - 3, at) === 'end') continue;
    let dataStart = at + 6;
    if (bytes[dataStart] === 0x0d) dataStart++;
    if (bytes[dataStart] === 0x0a) dataStart++;
    if (dataStart === at + 6) continue; // `stream` inside some other word or data
    const dictionary = streamDictionary(bytes, at);
    yield {
      dataStart,
      filters: dictionary === undefined ? undefined : readFilters(dictionary),
      earlyChange: dictionary !== undefined && /\/EarlyChange\s+0\b/.test(dictionary) ? 0 : 1,
      isImage: dictionary !== undefined && /\/Subtype\s*\/Image\b/.test(dictionary),
    };
  }
}

/** zlib's two-byte header: deflate, and a check value that makes it a multiple of 31. */
function looksDeflated(data: Uint8Array): boolean {
  return data.length >= 2 && (data[0]! & 0x0f) === 8 && ((data[0]! << 8) | data[1]!) % 31 === 0;
}

export function megabytes(bytes: number): string {
  return String(Math.round(bytes / (1024 * 1024)));
}

/** Throws ExtractionFailed('too_large') when the PDF's streams unpack to more than maxBytes in all. */
export async function checkPdfUnpackedSize(bytes: Buffer, maxBytes: number): Promise<void> {
  let total = 0;
  for (const stream of pdfStreams(bytes)) {
    if (stream.isImage) continue;
    const data = bytes.subarray(stream.dataStart);
    // A filter the dictionary hides behind a reference is taken for Flate when the data looks deflated.
    const filters = stream.filters ?? (looksDeflated(data) ? ['FlateDecode' as const] : []);
    total += await unpackedSize(data, filters, stream.earlyChange, maxBytes - total);
    if (total > maxBytes) {
      throw new ExtractionFailed('too_large', `The PDF's content unpacks to more than ${megabytes(maxBytes)} MB, the limit`);
    }
  }
}

// DOCX → HTML with mammoth (which maps Word's heading styles to <h1>…<h6>, lists, tables), then the
// HTML walker. mammoth is never handed the uploaded archive: the XML parts it reads are inflated
// here first, with a ceiling on what they actually inflate to (the sizes a ZIP directory declares
// can lie), and mammoth gets a stored (uncompressed) copy of them, so it has nothing left to inflate.
import { zipSync } from 'fflate';
import mammoth from 'mammoth';
import type { BlockList } from '../block-list.js';
import { ExtractionFailed, type ExtractionLimits } from '../document.js';
import { readZipDirectory, unpackZipEntry, type ZipDirectoryEntry } from '../zip-unpack.js';
import { addHtmlBlocks } from './html-blocks.js';

const MAX_ENTRIES = 10_000;

// Word's Title and Subtitle styles are headings for our purpose; mammoth maps only Heading 1–6.
const STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => h2:fresh"];

// Images carry no text; leaving them out spares mammoth encoding them into the HTML as base64.
const DROP_IMAGES = mammoth.images.imgElement(() => Promise.resolve({ src: '' }));

const isXmlPart = (entry: ZipDirectoryEntry) => /\.(xml|rels)$/i.test(entry.name);

const tooLarge = (limits: ExtractionLimits) =>
  new ExtractionFailed('too_large', `The DOCX file's text unpacks to more than ${limits.maxDocxXmlBytes} bytes of XML, the limit`);

/**
 * The archive mammoth reads: every XML part inflated within the limit (all of them together), the
 * other parts (images, fonts, embedded files) present by name but empty.
 */
async function boundedArchive(bytes: Buffer, limits: ExtractionLimits): Promise<Uint8Array> {
  const entries = readZipDirectory(bytes);
  if (entries === undefined) throw new ExtractionFailed('unreadable', 'The DOCX file is damaged: its ZIP directory cannot be read');
  const declared = entries.filter(isXmlPart).reduce((total, entry) => total + entry.declaredSize, 0);
  // The declared sizes refuse an honest large file without inflating anything.
  if (entries.length > MAX_ENTRIES || declared > limits.maxDocxXmlBytes) throw tooLarge(limits);
  const parts: Record<string, Uint8Array> = {};
  let unpacked = 0;
  for (const entry of entries) {
    if (!isXmlPart(entry)) {
      parts[entry.name] = new Uint8Array(0);
      continue;
    }
    const outcome = await unpackZipEntry(bytes, entry, limits.maxDocxXmlBytes - unpacked);
    if ('exceeded' in outcome) throw tooLarge(limits);
    if ('unreadable' in outcome) throw new ExtractionFailed('unreadable', `The DOCX file could not be read: ${outcome.unreadable}`);
    parts[entry.name] = outcome.data;
    unpacked += outcome.data.length;
  }
  return zipSync(parts, { level: 0 });
}

export async function extractDocx(bytes: Buffer, out: BlockList, limits: ExtractionLimits): Promise<{ title: string | undefined }> {
  const archive = await boundedArchive(bytes, limits);
  const { value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength) }, { styleMap: STYLE_MAP, convertImage: DROP_IMAGES });
  addHtmlBlocks(html, out);
  return { title: out.blocks.find((block) => block.kind === 'heading' && block.level === 1)?.text };
}

// DOCX → HTML with mammoth (which maps Word's heading styles to <h1>…<h6>, lists, tables), then the
// HTML walker. Before mammoth inflates anything, the archive's declared sizes are checked, so a ZIP
// bomb, or a document whose XML would take gigabytes to parse, is refused from its directory.
import mammoth from 'mammoth';
import type { BlockList } from '../block-list.js';
import { ExtractionFailed, type ExtractionLimits } from '../document.js';
import { listZipEntries } from '../zip-entries.js';
import { addHtmlBlocks } from './html-blocks.js';

const MAX_ENTRIES = 10_000;

// Word's Title and Subtitle styles are headings for our purpose; mammoth maps only Heading 1–6.
const STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => h2:fresh"];

// Images carry no text; leaving them out spares mammoth encoding them into the HTML as base64.
const DROP_IMAGES = mammoth.images.imgElement(() => Promise.resolve({ src: '' }));

export async function extractDocx(bytes: Buffer, out: BlockList, limits: ExtractionLimits): Promise<{ title: string | undefined }> {
  const entries = listZipEntries(bytes);
  if (entries === undefined) throw new ExtractionFailed('unreadable', 'The DOCX file is damaged: its ZIP directory cannot be read');
  const xmlBytes = entries.filter((entry) => /\.(xml|rels)$/i.test(entry.name)).reduce((total, entry) => total + entry.size, 0);
  if (entries.length > MAX_ENTRIES || xmlBytes > limits.maxDocxXmlBytes) {
    throw new ExtractionFailed('too_large', `The DOCX file's text unpacks to more than ${limits.maxDocxXmlBytes} bytes of XML, the limit`);
  }
  const { value: html } = await mammoth.convertToHtml({ buffer: bytes }, { styleMap: STYLE_MAP, convertImage: DROP_IMAGES });
  addHtmlBlocks(html, out);
  return { title: out.blocks.find((block) => block.kind === 'heading' && block.level === 1)?.text };
}

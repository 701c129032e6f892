// The readable text of a result's page, for a web search tool with fetch_pages: fetched through the
// egress client (so a link to a private, loopback or metadata address is refused like any other),
// only the first bytes read, HTML reduced to its text by the ingestion's HTML reader (scripts,
// navigation and forms dropped), cut. A page that cannot be read gives a reason instead, never an
// error of the whole search.
import { BlockList } from '../../ingest/block-list.js';
import { looksLikeHtml } from '../../ingest/text-heuristics.js';
import { decodeText } from '../../ingest/text-decoding.js';
import { EgressFailed, EgressRefused } from '../../net/egress-errors.js';
import type { EgressClient } from '../../net/egress.js';

/** Bytes of a page read at most: the text the model is given is a small part of any page. */
export const PAGE_BYTES = 512 * 1024;

export type PageText = { ok: true; text: string } | { ok: false; reason: string };

export interface PageFetchOptions {
  signal: AbortSignal;
  timeoutMs: number;
  maxBytes: number;
}

const TEXT_TYPES = /^(text\/(plain|markdown|csv)|application\/(json|xml)|text\/xml)$/;
const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)$/;

/** The page's first `maxBytes`, with its status and media type; the rest is never read. */
async function readStart(egress: EgressClient, url: string, options: PageFetchOptions) {
  const answer = await egress.stream(url, {
    headers: { accept: 'text/html, application/xhtml+xml, text/plain;q=0.8, */*;q=0.1' },
    timeoutMs: options.timeoutMs,
    // The cap the egress client enforces is wider: a larger page is cut here, not refused.
    maxBytes: Number.MAX_SAFE_INTEGER,
    signal: options.signal,
  });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of answer.body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= options.maxBytes) break;
  }
  const [type = '', ...parameters] = String(answer.headers['content-type'] ?? '').split(';');
  const charset = parameters.map((p) => /^\s*charset\s*=\s*"?([\w.:-]+)"?/i.exec(p)?.[1]).find(Boolean);
  return { status: answer.status, type: type.trim().toLowerCase(), charset, bytes: Buffer.concat(chunks).subarray(0, options.maxBytes) };
}

/** Bytes → text: UTF-8 or UTF-16 as documents are read, else the page's declared charset, else Windows-1252. */
function decodePage(bytes: Buffer, charset: string | undefined): string | undefined {
  const text = decodeText(bytes);
  if (text !== undefined) return text;
  try {
    return new TextDecoder(charset ?? 'windows-1252').decode(bytes);
  } catch {
    return undefined;
  }
}

/** The HTML extractor (and its parser) is loaded with the first page read, not at start. */
async function htmlText(html: string): Promise<string> {
  const { extractHtml } = await import('../../ingest/extractors/html.js');
  const blocks = new BlockList(html.length + 1);
  extractHtml(html, blocks);
  return blocks.blocks.map((block) => block.text).join('\n');
}

function failureReason(error: unknown): string {
  if (error instanceof EgressRefused) return error.message;
  if (error instanceof EgressFailed && error.kind === 'timeout') return 'the page did not answer in time';
  if (error instanceof EgressFailed && error.kind === 'aborted') return 'the search was cancelled';
  return error instanceof Error ? error.message : String(error);
}

export async function fetchPageText(egress: EgressClient, url: string, options: PageFetchOptions): Promise<PageText> {
  let page;
  try {
    page = await readStart(egress, url, options);
  } catch (error) {
    return { ok: false, reason: failureReason(error) };
  }
  if (page.status >= 300) return { ok: false, reason: `the page answered HTTP ${page.status}` };
  const isHtml = HTML_TYPES.test(page.type);
  if (!isHtml && !TEXT_TYPES.test(page.type) && page.type !== '') return { ok: false, reason: `the page is ${page.type}, not HTML or text` };
  const text = decodePage(page.bytes, page.charset);
  if (text === undefined) return { ok: false, reason: 'the page is not text' };
  try {
    const readable = isHtml || (page.type === '' && looksLikeHtml(text)) ? await htmlText(text) : text;
    const collapsed = readable.replace(/[ \t\f\v\r]+/g, ' ').replace(/\n\s*\n+/g, '\n').trim();
    return collapsed === '' ? { ok: false, reason: 'the page has no readable text' } : { ok: true, text: collapsed };
  } catch {
    return { ok: false, reason: 'the page could not be read' };
  }
}

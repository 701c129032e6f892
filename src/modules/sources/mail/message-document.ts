// A message as the document the pipeline reads: its headers (From, To, Cc, Date, Subject) above its
// body. A plain-text body makes a `txt` document; an HTML-only body (Gmail sends some so) makes an
// `html` document whose header block is escaped text, so that the HTML extractor reads both.
import type { MailMessage } from './mail-reader.js';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The longest title a document takes from a subject. */
const TITLE_CHARACTERS = 300;

export function messageTitle(message: MailMessage): string {
  const subject = message.subject.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return (subject === '' ? '(no subject)' : subject).slice(0, TITLE_CHARACTERS);
}

function headerLines(message: MailMessage): string[] {
  const lines = [`From: ${message.from}`, `To: ${message.to.join(', ')}`];
  if (message.cc.length > 0) lines.push(`Cc: ${message.cc.join(', ')}`);
  lines.push(`Date: ${message.date}`, `Subject: ${message.subject}`);
  // A header value cannot carry a line break into the block.
  return lines.map((line) => line.replace(/[\r\n]+/g, ' '));
}

export function messageDocument(message: MailMessage): { type: 'txt' | 'html'; bytes: Buffer } {
  if (message.bodyType === 'html') {
    const head = headerLines(message).map(escapeHtml).join('<br>\n');
    const html = `<!doctype html>\n<html><head><title>${escapeHtml(messageTitle(message))}</title></head><body>\n<p>${head}</p>\n<hr>\n${message.body}\n</body></html>\n`;
    return { type: 'html', bytes: Buffer.from(html, 'utf8') };
  }
  return { type: 'txt', bytes: Buffer.from(`${headerLines(message).join('\n')}\n\n${message.body}\n`, 'utf8') };
}

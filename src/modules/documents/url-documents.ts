// A URL document: the page is fetched once, at upload, through the egress client (which refuses
// private, loopback, link-local and metadata addresses), and then processed like a file.
import { BadRequest } from '../../errors.js';
import type { EgressClient } from '../../net/egress.js';

export async function fetchDocumentUrl(egress: EgressClient, url: string, maxBytes: number): Promise<{ bytes: Buffer; url: string }> {
  const response = await egress.request(url, { method: 'GET', maxBytes, headers: { accept: 'text/html, application/pdf, text/*, application/json, */*;q=0.5' } });
  if (response.status >= 400) throw new BadRequest(`Fetching the URL answered HTTP ${response.status}`, [{ pointer: '/body/url', message: `answered ${response.status}` }]);
  if (response.status >= 300) throw new BadRequest('The URL redirects too often or to nowhere', [{ pointer: '/body/url', message: 'redirects' }]);
  return { bytes: response.body, url: response.url };
}

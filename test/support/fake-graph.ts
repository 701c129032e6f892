// A fake of the Microsoft identity platform's token endpoint and of Graph's drive delta and content
// download, on loopback: a drive of files in folders whose every change is logged, so that a delta
// link (`?token=<sequence>`) answers the changes since it was given, as Graph does. Tests change the
// library, make a request fail with a status (and Retry-After), expire delta links (410), hold a
// download until released, and count what was downloaded.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { failing, HeldRequests, type Failure } from './fake-upstream.js';
import { startListener, type Listener } from './listeners.js';

export const TENANT = 'contoso.onmicrosoft.com';
export const CLIENT_ID = '1b2c3d4e-0000-4000-8000-000000000001';
export const CLIENT_SECRET = 'graph-client-secret-0123456789';
export const DRIVE_ID = 'b!drive-1';

interface FakeFile {
  id: string;
  name: string;
  /** '' for the root, 'Policies/HR' below it. */
  folder: string;
  content: Buffer;
  version: number;
}

export class FakeGraph {
  private listener!: Listener;
  private readonly files = new Map<string, FakeFile>();
  /** Item ids in the order they changed; a delta token is an index into it. */
  private readonly changes: string[] = [];
  private nextId = 1;
  pageSize = 2;
  tokenRequests = 0;
  downloads: string[] = [];
  deltaRequests: string[] = [];
  /** Delta links answer 410 (resyncRequired) while true; full syncs still answer. */
  deltaLinksExpired = false;
  deltaFailure: Failure | undefined;
  contentFailure: Failure | undefined;
  /** A download of this item waits until `release()`. */
  holdDownloadOf: string | undefined;
  private readonly held = new HeldRequests();
  /** The delta request waits until `release()` while true. */
  holdDelta = false;

  async start(): Promise<this> {
    this.listener = await startListener((request, response, body) => void this.serve(request, response, body));
    return this;
  }

  get origin(): string {
    return this.listener.origin;
  }

  get port(): number {
    return this.listener.port;
  }

  close(): Promise<void> {
    this.release();
    return this.listener.close();
  }

  release(): void {
    this.holdDownloadOf = undefined;
    this.holdDelta = false;
    this.held.release();
  }

  /** What is being held (`delta` or an item id): at once when a request is held now, otherwise when the next one is. */
  whenHeld(): Promise<string> {
    return this.held.whenHeld();
  }

  add(folder: string, name: string, content: string | Buffer): string {
    const id = `item-${this.nextId++}`;
    this.files.set(id, { id, name, folder, content: Buffer.isBuffer(content) ? content : Buffer.from(content), version: 1 });
    this.changes.push(id);
    return id;
  }

  change(id: string, content: string): void {
    const file = this.files.get(id)!;
    file.content = Buffer.from(content);
    file.version++;
    this.changes.push(id);
  }

  move(id: string, folder: string): void {
    const file = this.files.get(id)!;
    file.folder = folder;
    file.version++;
    this.changes.push(id);
  }

  delete(id: string): void {
    this.files.delete(id);
    this.changes.push(id);
  }

  /** A deletion no delta link will tell of: only a full sync finds it gone. */
  deleteUnlogged(id: string): void {
    this.files.delete(id);
  }

  private itemOf(id: string): object {
    const file = this.files.get(id);
    if (!file) return { id, deleted: { state: 'deleted' }, parentReference: { driveId: DRIVE_ID } };
    return {
      id,
      name: file.name,
      eTag: `"{${id}},${file.version}"`,
      cTag: `"c:{${id}},${file.version}"`,
      size: file.content.length,
      file: { mimeType: 'text/plain' },
      webUrl: `https://contoso.sharepoint.com/Shared%20Documents/${encodeURI(file.folder ? `${file.folder}/${file.name}` : file.name)}`,
      parentReference: { driveId: DRIVE_ID, path: `/drives/${DRIVE_ID}/root:${file.folder ? `/${encodeURI(file.folder)}` : ''}` },
    };
  }

  private async serve(request: IncomingMessage, response: ServerResponse, body: Buffer): Promise<void> {
    const url = new URL(request.url ?? '/', this.origin);
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));

    if (request.method === 'POST' && url.pathname === `/${TENANT}/oauth2/v2.0/token`) {
      this.tokenRequests++;
      const form = new URLSearchParams(body.toString('utf8'));
      if (form.get('grant_type') !== 'client_credentials' || form.get('client_id') !== CLIENT_ID || form.get('client_secret') !== CLIENT_SECRET) {
        return void json(401, { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided.', error_codes: [7000215] });
      }
      return void json(200, { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: 'fake-graph-token' });
    }
    if (request.headers.authorization !== 'Bearer fake-graph-token' && !url.pathname.startsWith('/download/')) {
      return void json(401, { error: { code: 'InvalidAuthenticationToken', message: 'Access token is empty.' } });
    }

    const drive = `/v1.0/drives/${encodeURIComponent(DRIVE_ID)}`;
    if (url.pathname === `${drive}/root/delta`) {
      this.deltaRequests.push(url.search);
      if (this.holdDelta) await this.held.hold('delta');
      if (failing(this.deltaFailure, json)) return;
      const token = url.searchParams.get('token');
      if (token !== null && this.deltaLinksExpired) return void json(410, { error: { code: 'resyncRequired', message: 'Resync required.' } });
      // A round is fixed when it starts: the ids to list and the token the last page hands out.
      const ids = token === null ? [...this.files.keys()] : [...new Set(this.changes.slice(Number(token)))];
      const at = Number(url.searchParams.get('at') ?? this.changes.length);
      const skip = Number(url.searchParams.get('skip') ?? 0);
      const page = ids.slice(skip, skip + this.pageSize).map((id) => this.itemOf(id));
      const base = `${this.origin}${drive}/root/delta`;
      const more = skip + this.pageSize < ids.length;
      const round = token === null ? '' : `token=${token}&`;
      return void json(200, {
        value: page,
        ...(more ? { '@odata.nextLink': `${base}?${round}at=${at}&skip=${skip + this.pageSize}` } : { '@odata.deltaLink': `${base}?token=${at}` }),
      });
    }
    const content = url.pathname.match(new RegExp(`^${drive}/items/([^/]+)/content$`));
    if (content) {
      const id = decodeURIComponent(content[1]!);
      if (failing(this.contentFailure, json)) return;
      if (!this.files.has(id)) return void json(404, { error: { code: 'itemNotFound', message: 'The resource could not be found.' } });
      // Graph answers with a pre-authenticated download URL.
      return void response.writeHead(302, { location: `${this.origin}/download/${encodeURIComponent(id)}` }).end();
    }
    const download = url.pathname.match(/^\/download\/([^/]+)$/);
    if (download) {
      const id = decodeURIComponent(download[1]!);
      this.downloads.push(id);
      if (this.holdDownloadOf === id) await this.held.hold(id);
      const file = this.files.get(id);
      if (!file) return void json(404, { error: { code: 'itemNotFound', message: 'gone' } });
      return void response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(file.content);
    }
    json(404, { error: { code: 'itemNotFound', message: `No route ${url.pathname}` } });
  }
}

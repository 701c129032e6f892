// The mailboxes behind the fake mail providers (fake-mail.ts): a Microsoft 365 mailbox served as
// Graph's folder message delta and attachments, and a Gmail mailbox served as labels, history and
// messages. `/me` and the profile name the account the access token belongs to. Every change is logged, so that a delta link (`?token=<index>`) or a history id answers
// the changes since it was given, as the real APIs do.
import { failing, HeldRequests, type Failure, type Json } from './fake-upstream.js';

export interface FakeAttachment {
  name: string;
  content: Buffer;
}

/** Shared by both boxes: downloads counted, and one held until released. */
class Downloads {
  attachmentDownloads: string[] = [];
  /** The download of the attachment with this name waits until `release()`. */
  holdAttachment: string | undefined;
  private readonly held = new HeldRequests();

  release(): void {
    this.holdAttachment = undefined;
    this.held.release();
  }

  /** The name of a download being held: at once when one is held now, otherwise when the next one is. */
  whenHeld(): Promise<string> {
    return this.held.whenHeld();
  }

  protected async download(name: string): Promise<void> {
    this.attachmentDownloads.push(name);
    if (this.holdAttachment === name) await this.held.hold(name);
  }
}

interface GraphMessage {
  id: string;
  folder: string;
  subject: string;
  body: string;
  attachments: FakeAttachment[];
}

export class FakeGraphBox extends Downloads {
  readonly address = 'alice@contoso.example';
  private readonly messages = new Map<string, GraphMessage>();
  private readonly changes: { id: string; folders: string[] }[] = [];
  private nextId = 1;
  pageSize = 2;
  deltaRequests: string[] = [];
  deltaLinksExpired = false;
  deltaFailure: Failure | undefined;

  add(folder: string, subject: string, body: string, attachments: FakeAttachment[] = []): string {
    const id = `AAMk-${this.nextId++}`;
    this.messages.set(id, { id, folder, subject, body, attachments });
    this.changes.push({ id, folders: [folder] });
    return id;
  }

  move(id: string, folder: string): void {
    const message = this.messages.get(id)!;
    this.changes.push({ id, folders: [message.folder, folder] });
    message.folder = folder;
  }

  delete(id: string): void {
    this.changes.push({ id, folders: [this.messages.get(id)!.folder] });
    this.messages.delete(id);
  }

  /** A deletion no delta link will tell of: only a full sync finds it gone. */
  deleteUnlogged(id: string): void {
    this.messages.delete(id);
  }

  /** `account`: who the access token belongs to, as `/me` names it. */
  async serve(url: URL, path: string, base: string, account: string, json: Json): Promise<void> {
    if (path === '/me') return json(200, { mail: account, userPrincipalName: account });
    const delta = path.match(/^\/me\/mailFolders\/([^/]+)\/messages\/delta$/);
    if (delta) {
      const folder = decodeURIComponent(delta[1]!);
      this.deltaRequests.push(`${folder}${url.search}`);
      if (failing(this.deltaFailure, json)) return;
      const token = url.searchParams.get('token');
      if (token !== null && this.deltaLinksExpired) return json(410, { error: { code: 'syncStateNotFound', message: 'Sync state generation is not found.' } });
      const ids =
        token === null
          ? [...this.messages.values()].filter((m) => m.folder === folder).map((m) => m.id)
          : [...new Set(this.changes.slice(Number(token)).filter((c) => c.folders.includes(folder)).map((c) => c.id))];
      const at = Number(url.searchParams.get('at') ?? this.changes.length);
      const skip = Number(url.searchParams.get('skip') ?? 0);
      const value = ids.slice(skip, skip + this.pageSize).map((id) => {
        const m = this.messages.get(id);
        if (!m || m.folder !== folder) return { id, '@removed': { reason: m ? 'changed' : 'deleted' } };
        return {
          id,
          subject: m.subject,
          from: { emailAddress: { name: 'Carol Sender', address: 'carol@example.com' } },
          toRecipients: [{ emailAddress: { address: this.address } }],
          receivedDateTime: '2026-11-20T09:00:00Z',
          body: { contentType: 'text', content: m.body },
          webLink: `https://outlook.office365.com/owa/?ItemID=${id}`,
          hasAttachments: m.attachments.length > 0,
        };
      });
      const link = `${base}/me/mailFolders/${encodeURIComponent(folder)}/messages/delta`;
      const round = token === null ? '' : `token=${token}&`;
      const more = skip + this.pageSize < ids.length;
      return json(200, { value, ...(more ? { '@odata.nextLink': `${link}?${round}at=${at}&skip=${skip + this.pageSize}` } : { '@odata.deltaLink': `${link}?token=${at}` }) });
    }
    const attachments = path.match(/^\/me\/messages\/([^/]+)\/attachments(?:\/([^/]+))?$/);
    if (attachments) {
      const message = this.messages.get(decodeURIComponent(attachments[1]!));
      if (!message) return json(404, { error: { code: 'ErrorItemNotFound', message: 'The specified object was not found in the store.' } });
      const list = message.attachments.map((a, i) => ({ '@odata.type': '#microsoft.graph.fileAttachment', id: `att-${i}`, name: a.name, size: a.content.length }));
      if (attachments[2] === undefined) return json(200, { value: list });
      const index = Number(decodeURIComponent(attachments[2]).replace('att-', ''));
      const attachment = message.attachments[index];
      if (!attachment) return json(404, { error: { code: 'ErrorItemNotFound', message: 'No such attachment.' } });
      await this.download(attachment.name);
      return json(200, { ...list[index], contentBytes: attachment.content.toString('base64') });
    }
    json(404, { error: { code: 'ResourceNotFound', message: `No route ${path}` } });
  }
}

interface GmailMessage {
  id: string;
  labels: string[];
  subject: string;
  body: string;
  html: boolean;
  attachments: FakeAttachment[];
}

export class FakeGmailBox extends Downloads {
  readonly address = 'bob@gmail.example';
  private readonly messages = new Map<string, GmailMessage>();
  private readonly history: { id: number; touched: string[]; deleted: string[] }[] = [];
  private historyId = 1000;
  /** History ids older than this answer 404 (Gmail keeps about a week). */
  private oldestHistory = 0;
  private nextId = 1;
  pageSize = 2;
  fullFetches: string[] = [];
  listRequests: string[] = [];
  historyRequests: string[] = [];
  failure: Failure | undefined;

  add(labels: string[], subject: string, body: string, attachments: FakeAttachment[] = [], html = false): string {
    const id = `18c${(this.nextId++).toString(16).padStart(5, '0')}`;
    this.messages.set(id, { id, labels, subject, body, html, attachments });
    this.history.push({ id: ++this.historyId, touched: [id], deleted: [] });
    return id;
  }

  relabel(id: string, labels: string[]): void {
    this.messages.get(id)!.labels = labels;
    this.history.push({ id: ++this.historyId, touched: [id], deleted: [] });
  }

  delete(id: string): void {
    this.messages.delete(id);
    this.history.push({ id: ++this.historyId, touched: [], deleted: [id] });
  }

  deleteUnlogged(id: string): void {
    this.messages.delete(id);
  }

  expireHistory(): void {
    this.oldestHistory = this.historyId + 1;
  }

  private full(m: GmailMessage) {
    const headers = [
      { name: 'Subject', value: m.subject },
      { name: 'From', value: 'Dave Sender <dave@example.com>' },
      { name: 'To', value: this.address },
      { name: 'Date', value: 'Fri, 20 Nov 2026 09:00:00 +0000' },
    ];
    const text = { partId: '0', mimeType: m.html ? 'text/html' : 'text/plain', filename: '', body: { size: m.body.length, data: Buffer.from(m.body).toString('base64url') } };
    const files = m.attachments.map((a, i) => ({ partId: String(i + 1), mimeType: 'application/octet-stream', filename: a.name, body: { size: a.content.length, attachmentId: `ANGj${i}-${Math.random().toString(36).slice(2)}` } }));
    return { id: m.id, labelIds: m.labels, internalDate: String(Date.parse('2026-11-20T09:00:00Z')), payload: { partId: '', mimeType: 'multipart/mixed', headers, body: { size: 0 }, parts: [text, ...files] } };
  }

  /** `account`: who the access token belongs to, as the profile names it. */
  async serve(url: URL, path: string, account: string, json: Json): Promise<void> {
    if (path === '/users/me/profile') return json(200, { emailAddress: account, historyId: String(this.historyId) });
    const skip = Number(url.searchParams.get('pageToken') ?? 0);
    if (path === '/users/me/messages') {
      this.listRequests.push(url.search);
      if (failing(this.failure, json)) return;
      const label = url.searchParams.get('labelIds') ?? '';
      const ids = [...this.messages.values()].filter((m) => m.labels.includes(label)).map((m) => m.id);
      const more = skip + this.pageSize < ids.length;
      return json(200, { messages: ids.slice(skip, skip + this.pageSize).map((id) => ({ id, threadId: id })), ...(more ? { nextPageToken: String(skip + this.pageSize) } : {}), resultSizeEstimate: ids.length });
    }
    if (path === '/users/me/history') {
      this.historyRequests.push(url.search);
      if (failing(this.failure, json)) return;
      const start = Number(url.searchParams.get('startHistoryId'));
      if (start < this.oldestHistory) return json(404, { error: { code: 404, message: 'Requested entity was not found.' } });
      const records = this.history.filter((h) => h.id > start);
      const more = skip + this.pageSize < records.length;
      const history = records.slice(skip, skip + this.pageSize).map((h) => ({
        id: String(h.id),
        messages: [...h.touched, ...h.deleted].map((id) => ({ id, threadId: id })),
        ...(h.deleted.length ? { messagesDeleted: h.deleted.map((id) => ({ message: { id, threadId: id } })) } : {}),
      }));
      return json(200, { history, historyId: String(this.historyId), ...(more ? { nextPageToken: String(skip + this.pageSize) } : {}) });
    }
    const attachment = path.match(/^\/users\/me\/messages\/([^/]+)\/attachments\/ANGj(\d+)-/);
    if (attachment) {
      const m = this.messages.get(attachment[1]!);
      const file = m?.attachments[Number(attachment[2])];
      if (!file) return json(404, { error: { code: 404, message: 'Requested entity was not found.' } });
      await this.download(file.name);
      return json(200, { size: file.content.length, data: file.content.toString('base64url') });
    }
    const message = path.match(/^\/users\/me\/messages\/([^/]+)$/);
    if (message) {
      const m = this.messages.get(decodeURIComponent(message[1]!));
      if (!m) return json(404, { error: { code: 404, message: 'Requested entity was not found.' } });
      if (url.searchParams.get('format') === 'minimal') return json(200, { id: m.id, threadId: m.id, labelIds: m.labels, historyId: String(this.historyId) });
      this.fullFetches.push(m.id);
      return json(200, this.full(m));
    }
    json(404, { error: { code: 404, message: `No route ${path}` } });
  }
}

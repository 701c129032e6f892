// PostgreSQL's notices (notices.ts): one connection per process, outside the pools, LISTENs on every
// channel a reader asked for and hands each NOTIFY to that channel's listeners. It is opened when
// the first reader listens. When it is lost (the server restarts, an administrator ends it), it is
// opened again after a pause that doubles with each failure, and every listener is then woken with
// no payload: what was notified while nobody listened is found by reading again.
import type pg from 'pg';
import { loadPg } from './pg-module.js';
import type { NoticeListener, Notices } from './notices.js';

/** How the listening connection shows in pg_stat_activity. */
export const NOTICES_APPLICATION_NAME = 'agent-platform notices';

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 30_000;

export class PostgresNotices implements Notices {
  private readonly listeners = new Map<string, Set<NoticeListener>>();
  /** The connection that listens now. */
  private client: pg.Client | undefined;
  /** A connection being opened. */
  private attempt: Promise<void> | undefined;
  /** The next attempt, after a failure. */
  private retry: NodeJS.Timeout | undefined;
  private failures = 0;
  private closed = false;

  constructor(private readonly url: string) {}

  async listen(channel: string, listener: NoticeListener): Promise<() => void> {
    let listeners = this.listeners.get(channel);
    const isNewChannel = listeners === undefined;
    if (listeners === undefined) this.listeners.set(channel, (listeners = new Set()));
    listeners.add(listener);
    const stop = () => void listeners.delete(listener);
    if (this.closed) return stop;
    if (this.client === undefined && this.attempt === undefined && this.retry === undefined) this.attempt = this.connect();
    // A connection being opened listens on the channels known when it LISTENs: this one may be late.
    await this.attempt;
    // A failure here loses the connection, and the next one listens on every channel.
    if (isNewChannel && this.client !== undefined) await this.client.query(`LISTEN ${this.client.escapeIdentifier(channel)}`).catch(() => undefined);
    return stop;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.attempt;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new (loadPg().Client)({ connectionString: this.url, application_name: NOTICES_APPLICATION_NAME, connectionTimeoutMillis: 5000 });
    let lost = false;
    const lose = () => {
      if (lost) return;
      lost = true;
      client.end().catch(() => undefined);
      this.connectionLost(client);
    };
    // Without an 'error' listener a dropped connection would end the process.
    client.on('error', lose).on('end', lose);
    client.on('notification', (notice) => this.deliver(notice.channel, notice.payload));
    try {
      await client.connect();
      for (const channel of this.listeners.keys()) await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch {
      lose();
    } finally {
      this.attempt = undefined;
    }
    if (lost) return;
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.failures = 0;
    // Whatever was notified before this connection listened: everyone reads again.
    for (const channel of this.listeners.keys()) this.deliver(channel, undefined);
  }

  private connectionLost(client: pg.Client): void {
    if (this.client === client) this.client = undefined;
    if (this.closed || this.retry !== undefined) return;
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** this.failures++);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.attempt = this.connect();
    }, delay);
    this.retry.unref();
  }

  private deliver(channel: string, payload: string | undefined): void {
    for (const listener of this.listeners.get(channel) ?? []) listener(payload);
  }
}

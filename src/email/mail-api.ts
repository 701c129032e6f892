// The one way the mail clients call an API (Graph or Gmail): a GET with the access token, over the
// egress client, JSON in. 429 and 503 are tried again after the Retry-After the API sends, bounded
// as connectors are (a wait longer than maxWaitMs, or more than maxRetries of them, ends the call
// as throttled). Statuses the caller reads itself (410 or 404 on an incremental position) come back
// as `resync`; any other refusal is a MailError.
import { graphMessage } from '../connectors/graph/graph-errors.js';
import { retryAfterMs } from '../connectors/graph/graph-client.js';
import { EgressFailed, EgressRefused } from '../net/egress-errors.js';
import type { EgressClient } from '../net/egress.js';
import { MailError, MailResyncRequired, mailErrorOfStatus } from './mail-errors.js';

export interface MailApiOptions {
  /** Waits `ms` (Retry-After); injected so tests do not sleep. Rejects when `signal` aborts. */
  wait(ms: number, signal?: AbortSignal): Promise<void>;
  maxRetries: number;
  maxWaitMs: number;
  /** Largest answer read (an attachment's JSON carries its bytes). */
  maxBytes: number;
  signal?: AbortSignal;
  now(): number;
}

export class MailApi {
  readonly base: string;

  constructor(
    private readonly egress: EgressClient,
    apiBase: URL,
    private readonly accessToken: string,
    private readonly options: MailApiOptions,
    private readonly label: string,
  ) {
    this.base = apiBase.href.replace(/\/$/, '');
  }

  /** Paging links come from the API's answers: the token goes nowhere but to the configured API. */
  requireOwnUrl(url: string): void {
    if (!url.startsWith(`${this.base}/`)) throw new MailError('bad_response', `${this.label} answered a paging link outside its own address`);
  }

  /** The JSON answer of a GET; `resyncOn` statuses throw MailResyncRequired. */
  async getJson<T>(url: string, resyncOn: readonly number[] = [], headers: Record<string, string> = {}): Promise<T> {
    this.requireOwnUrl(url);
    for (let attempt = 0; ; attempt++) {
      const response = await this.request(url, headers);
      if (response.status < 300) {
        try {
          return JSON.parse(response.body.toString('utf8')) as T;
        } catch {
          throw new MailError('bad_response', `${this.label} answered something that is not JSON`, response.status);
        }
      }
      const detail = graphMessage(response.body);
      if (resyncOn.includes(response.status)) throw new MailResyncRequired(detail || `HTTP ${response.status}`);
      if (response.status === 429 || response.status === 503) {
        const delay = retryAfterMs(response.headers['retry-after'], this.options.now()) ?? 1000 * 2 ** attempt;
        if (attempt < this.options.maxRetries && delay <= this.options.maxWaitMs) {
          await this.options.wait(delay, this.options.signal);
          continue;
        }
      }
      throw mailErrorOfStatus(response.status, `${this.label} answered HTTP ${response.status}${detail ? `: ${detail}` : ''}`);
    }
  }

  private async request(url: string, headers: Record<string, string>) {
    try {
      return await this.egress.request(url, {
        method: 'GET',
        headers: { authorization: `Bearer ${this.accessToken}`, accept: 'application/json', ...headers },
        maxBytes: this.options.maxBytes,
        ...(this.options.signal ? { signal: this.options.signal } : {}),
      });
    } catch (error) {
      if (this.options.signal?.aborted) throw error;
      if (error instanceof EgressFailed && error.kind === 'too_large') throw new MailError('bad_response', `larger than ${this.options.maxBytes} bytes`);
      if (error instanceof EgressFailed || error instanceof EgressRefused) throw new MailError('unreachable', error.message);
      throw error;
    }
  }
}

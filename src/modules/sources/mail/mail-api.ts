// The one way the mail clients call an API (Graph or Gmail): a GET with the access token, over the
// egress client, JSON in. 429 and 503 are tried again after the Retry-After the API sends, bounded
// as connectors are (a wait longer than maxWaitMs, or more than maxRetries of them, ends the call
// as throttled). Statuses the caller reads itself (410 or 404 on an incremental position) come back
// as `resync`; any other refusal is a MailError.
import { graphMessage } from '../graph/graph-errors.js';
import { isThrottled, retryAfterMs, throttledRetries, withRetries, type ThrottleOptions } from '../../../providers/retry.js';
import { EgressFailed, EgressRefused } from '../../../net/egress-errors.js';
import type { EgressClient, EgressResponse } from '../../../net/egress.js';
import { MailError, MailResyncRequired, mailErrorOfStatus } from './mail-errors.js';

export interface MailApiOptions extends ThrottleOptions {
  /** Largest answer read (an attachment's JSON carries its bytes). */
  maxBytes: number;
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
    const refusal = (response: EgressResponse) => {
      const detail = graphMessage(response.body);
      return mailErrorOfStatus(response.status, `${this.label} answered HTTP ${response.status}${detail ? `: ${detail}` : ''}`);
    };
    return withRetries<T, EgressResponse>(async () => {
      const response = await this.request(url, headers);
      if (response.status < 300) {
        try {
          return { value: JSON.parse(response.body.toString('utf8')) as T };
        } catch {
          throw new MailError('bad_response', `${this.label} answered something that is not JSON`, response.status);
        }
      }
      if (resyncOn.includes(response.status)) throw new MailResyncRequired(graphMessage(response.body) || `HTTP ${response.status}`);
      if (isThrottled(response.status)) return { failure: response, retryAfterMs: retryAfterMs(response.headers['retry-after'], this.options.now()) };
      throw refusal(response);
    }, throttledRetries(this.options, refusal));
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

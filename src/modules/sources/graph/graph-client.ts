// The few Graph calls a document-library sync makes, over the egress client: delta pages of a
// drive (`/drives/{id}/root/delta`, or the site's default drive) and an item's content. 429 and 503
// are tried again after the Retry-After Graph sends (bounded: a wait longer than maxWaitMs, or more
// than maxRetries of them, ends the call as throttled); a 410 on a delta link is ResyncRequired.
import { EgressFailed, EgressRefused } from '../../../net/egress-errors.js';
import type { EgressClient, EgressResponse } from '../../../net/egress.js';
import { GraphError, ResyncRequired, codeOfStatus, graphMessage } from './graph-errors.js';
import { isThrottled, retryAfterMs, throttledRetries, withRetries, type ThrottleOptions } from '../../../providers/retry.js';

/** A drive item as delta pages describe it (only the members a sync reads). */
export interface DriveItem {
  id: string;
  name?: string;
  eTag?: string;
  cTag?: string;
  size?: number;
  webUrl?: string;
  file?: object;
  folder?: object;
  deleted?: object;
  /** `path` is `/drive/root:/Folder/Sub` (absent on the root and on deleted items). */
  parentReference?: { path?: string; driveId?: string };
}

export interface DeltaPage {
  items: DriveItem[];
  /** The next page of this round; absent on the last page. */
  nextLink?: string;
  /** On the last page: where the next sync starts. */
  deltaLink?: string;
}

/** Where a library is: a drive by id, or a site's default document library. */
export type DriveLocation = { driveId: string } | { siteId: string };

export type GraphClientOptions = ThrottleOptions;

const PAGE_BYTES = 20 * 1024 * 1024;

export class GraphClient {
  private readonly base: string;

  constructor(
    private readonly egress: EgressClient,
    graphBase: URL,
    private readonly token: string,
    private readonly options: GraphClientOptions,
  ) {
    this.base = graphBase.href.replace(/\/$/, '');
  }

  private drivePath(location: DriveLocation): string {
    return 'driveId' in location ? `/drives/${encodeURIComponent(location.driveId)}` : `/sites/${encodeURIComponent(location.siteId)}/drive`;
  }

  /** The first page of a full sync. Delta is asked of the root: Graph offers it on folders of personal drives only. */
  fullSyncUrl(location: DriveLocation): string {
    return `${this.base}${this.drivePath(location)}/root/delta`;
  }

  /** One delta page. ResyncRequired on 410; GraphError on any other refusal. */
  async deltaPage(url: string): Promise<DeltaPage> {
    this.requireGraphUrl(url);
    const response = await this.send(url, PAGE_BYTES, true);
    let parsed: { value?: unknown; '@odata.nextLink'?: unknown; '@odata.deltaLink'?: unknown };
    try {
      parsed = JSON.parse(response.body.toString('utf8'));
    } catch {
      throw new GraphError('bad_response', 'Graph answered a delta page that is not JSON', response.status);
    }
    if (!Array.isArray(parsed.value)) throw new GraphError('bad_response', 'Graph answered a delta page without a value list', response.status);
    const items = parsed.value.filter((item): item is DriveItem => typeof item === 'object' && item !== null && typeof (item as DriveItem).id === 'string');
    const link = (value: unknown) => (typeof value === 'string' ? value : undefined);
    const page: DeltaPage = { items };
    const nextLink = link(parsed['@odata.nextLink']);
    const deltaLink = link(parsed['@odata.deltaLink']);
    if (nextLink !== undefined) page.nextLink = nextLink;
    if (deltaLink !== undefined) page.deltaLink = deltaLink;
    if (!page.nextLink && !page.deltaLink) throw new GraphError('bad_response', 'Graph answered a delta page with neither a next nor a delta link', response.status);
    return page;
  }

  /** An item's bytes (Graph redirects to a pre-authenticated URL, which is followed without the token). */
  async content(location: DriveLocation, itemId: string, maxBytes: number): Promise<Buffer> {
    const response = await this.send(`${this.base}${this.drivePath(location)}/items/${encodeURIComponent(itemId)}/content`, maxBytes, false);
    return response.body;
  }

  /** Paging links come from Graph's answers: the token goes nowhere but to the configured Graph. */
  private requireGraphUrl(url: string): void {
    if (!url.startsWith(`${this.base}/`)) throw new GraphError('bad_response', 'Graph answered a paging link outside its own address');
  }

  private send(url: string, maxBytes: number, isDelta: boolean): Promise<EgressResponse> {
    const refusal = (response: EgressResponse) => {
      const detail = graphMessage(response.body);
      return new GraphError(codeOfStatus(response.status), `Graph answered HTTP ${response.status}${detail ? `: ${detail}` : ''}`, response.status);
    };
    return withRetries<EgressResponse, EgressResponse>(async () => {
      const response = await this.request(url, maxBytes);
      if (response.status < 300) return { value: response };
      if (isDelta && response.status === 410) throw new ResyncRequired(graphMessage(response.body) || 'The delta link expired');
      if (isThrottled(response.status)) return { failure: response, retryAfterMs: retryAfterMs(response.headers['retry-after'], this.options.now()) };
      throw refusal(response);
    }, throttledRetries(this.options, refusal));
  }

  private async request(url: string, maxBytes: number): Promise<EgressResponse> {
    try {
      return await this.egress.request(url, {
        method: 'GET',
        headers: { authorization: `Bearer ${this.token}`, accept: 'application/json' },
        maxBytes,
        ...(this.options.signal ? { signal: this.options.signal } : {}),
      });
    } catch (error) {
      if (this.options.signal?.aborted) throw error;
      if (error instanceof EgressFailed && error.kind === 'too_large') throw new GraphError('bad_response', `larger than ${maxBytes} bytes`);
      if (error instanceof EgressFailed || error instanceof EgressRefused) throw new GraphError('unreachable', error.message);
      throw error;
    }
  }
}

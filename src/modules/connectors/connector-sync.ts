// The connector.sync job: brings a corpus to match its document library. It reads Graph's delta pages
// from the stored delta link (a full sync without one), and for each item adds, replaces or removes
// the document made of it, matched by the Graph item id; an item whose etag and cTag did not change is
// not downloaded. Each item's change and its counter commit together, and the page being read is
// recorded as the sync goes, so a sync stopped midway (a restart, a lost lease) goes on from that page
// and re-applies nothing twice. A full sync (the first one, after another library or folder was
// chosen, or after Graph answered 410 for the delta link) ends by removing every item it did not see.
// Graph's refusals end the sync as failed with a code on the connector; the job itself then succeeds
// (trying again at once would meet the same refusal); the schedule, if any, tries later.
import { setTimeout as delay } from 'node:timers/promises';
import { now } from '../../clock.js';
import { GraphClient, type DriveItem, type DriveLocation } from '../../connectors/graph/graph-client.js';
import { GraphError, ResyncRequired } from '../../connectors/graph/graph-errors.js';
import { acquireGraphToken } from '../../connectors/graph/token.js';
import type { CompleteJob, Job, JobHandler } from '../../jobs/job-types.js';
import type { EgressClient } from '../../net/egress.js';
import type { UnitOfWork } from '../../repositories.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { displayName } from '../documents/incoming.js';
import type { DocumentIntake } from '../documents/intake.js';
import { openClientSecret } from './connector-secrets.js';
import type { ConnectorItem, ConnectorRow } from './connectors.repo.js';
import { connectorSubject } from './sync-jobs.repo.js';
import { queueScheduledSync } from './sync-schedule.js';
import { inScope, normalizeFolder, versionOf } from './library-scope.js';

export interface ConnectorSyncOptions {
  /** The identity platform, e.g. https://login.microsoftonline.com */
  loginUrl: URL;
  /** Graph, e.g. https://graph.microsoft.com/v1.0 */
  graphUrl: URL;
  /** Larger files are counted as failed, not downloaded. */
  maxFileBytes: number;
  /** How many times a 429/503 is waited out, and the longest Retry-After obeyed. */
  maxRetries: number;
  maxWaitMs: number;
}

/** The failures a connector lists (the counter counts them all). */
const FAILURES_SHOWN = 50;

/** Item failures that end the sync rather than the item: the whole library is refused or out of reach. */
const FATAL_CODES = new Set(['auth', 'throttled', 'upstream', 'unreachable']);

/** The connector's documents are written in the name of whoever linked it. */
const ownerOf = (connector: ConnectorRow) => ({ organizationId: connector.organization_id, corpusId: connector.corpus_id, userId: connector.created_by });

interface SyncRun {
  connector: ConnectorRow;
  client: GraphClient;
  location: DriveLocation;
  folder: string;
  stopping: AbortSignal;
}

export class ConnectorSync implements JobHandler<'connector.sync'> {
  /** Waits out a Retry-After; tests replace it to record the delays instead of sleeping. */
  wait: (ms: number, signal?: AbortSignal) => Promise<void> = (ms, signal) => delay(ms, undefined, signal ? { signal } : {});

  constructor(
    private readonly store: UnitOfWork,
    private readonly intake: DocumentIntake,
    private readonly secrets: SecretBox,
    private readonly egress: EgressClient,
    private readonly detectType: (bytes: Buffer) => string | undefined,
    private readonly options: ConnectorSyncOptions,
  ) {}

  // `stopping` is optional so that a worker which passes none still runs syncs (they then cannot be stopped midway).
  async run(job: Job<'connector.sync'>, complete: CompleteJob, stopping: AbortSignal = new AbortController().signal): Promise<void> {
    const connector = await this.begin(job.payload.organizationId, job.payload.connectorId);
    if (!connector) return;
    try {
      const deltaLink = await this.syncPages(connector, stopping);
      await this.finish(connector, complete, { deltaLink });
    } catch (error) {
      if (stopping.aborted || !(error instanceof GraphError)) throw error;
      await this.finish(connector, complete, { error });
    }
  }

  async onFailed(job: Job<'connector.sync'>, reason: string): Promise<void> {
    await this.store.repos.connectors.update(job.payload.organizationId, job.payload.connectorId, {
      sync_status: 'failed',
      sync_finished_on: now(),
      page_link: null,
      sync_error_code: null,
      sync_error: `The sync stopped: ${reason}`.slice(0, 500),
    });
  }

  /** The connector with its sync started; a sync found running (stopped midway) goes on as it was. */
  private async begin(organizationId: number, connectorId: number): Promise<ConnectorRow | undefined> {
    const { connectors } = this.store.repos;
    const current = await connectors.find(organizationId, connectorId);
    if (!current) return undefined;
    if (current.sync_status !== 'running') {
      await connectors.update(organizationId, connectorId, {
        sync_status: 'running',
        sync_number: current.sync_number + 1,
        full_sync: current.delta_link === null ? 1 : 0,
        page_link: null,
        sync_started_on: now(),
        sync_finished_on: null,
        sync_added: 0,
        sync_updated: 0,
        sync_removed: 0,
        sync_failed: 0,
        sync_failures: '[]',
        sync_error_code: null,
        sync_error: null,
      });
    }
    return connectors.find(organizationId, connectorId);
  }

  /** Reads every delta page of this round and applies its items; answers the delta link of the next sync. */
  private async syncPages(connector: ConnectorRow, stopping: AbortSignal): Promise<string> {
    const clientSecret = openClientSecret(this.secrets, connector);
    const token = await acquireGraphToken(this.egress, this.options.loginUrl, { tenantId: connector.tenant_id, clientId: connector.client_id, clientSecret }, stopping);
    const client = new GraphClient(this.egress, this.options.graphUrl, token, {
      wait: (ms, signal) => this.wait(ms, signal),
      maxRetries: this.options.maxRetries,
      maxWaitMs: this.options.maxWaitMs,
      signal: stopping,
      now: () => Date.now(),
    });
    const location: DriveLocation = connector.drive_id !== null ? { driveId: connector.drive_id } : { siteId: connector.site_id ?? '' };
    const run: SyncRun = { connector, client, location, folder: normalizeFolder(connector.folder_path), stopping };
    let full = connector.full_sync === 1;
    let url = connector.page_link ?? connector.delta_link ?? client.fullSyncUrl(location);
    let resynced = false;
    for (;;) {
      let page;
      try {
        page = await client.deltaPage(url);
      } catch (error) {
        if (!(error instanceof ResyncRequired)) throw error;
        if (resynced) throw new GraphError('bad_response', 'Graph asked for a full resync twice in one sync');
        // The delta link expired: start again from nothing, and remove at the end what was not seen.
        resynced = true;
        full = true;
        await this.store.repos.connectors.update(connector.organization_id, connector.id, { full_sync: 1, delta_link: null, page_link: null });
        url = client.fullSyncUrl(location);
        continue;
      }
      for (const item of page.items) {
        stopping.throwIfAborted();
        await this.apply(run, item);
      }
      if (page.nextLink !== undefined) {
        await this.store.repos.connectors.update(connector.organization_id, connector.id, { page_link: page.nextLink });
        url = page.nextLink;
        continue;
      }
      if (full) await this.removeUnseen(run);
      return page.deltaLink!;
    }
  }

  /** Brings one item's change to the corpus. */
  private async apply(run: SyncRun, item: DriveItem): Promise<void> {
    const { connectors } = this.store.repos;
    const { connector } = run;
    const existing = await connectors.findItem(connector.id, item.id);
    if (!inScope(item, run.folder)) {
      // Deleted, moved out of the folder, or a folder: what was brought in of it leaves the corpus.
      if (existing) await this.removeItem(connector, existing);
      return;
    }
    const version = versionOf(item);
    if (existing && existing.etag === version) {
      await connectors.markSeen(connector.id, item.id, connector.sync_number);
      return;
    }
    const name = displayName(item.name, `item ${item.id}`);
    if (item.size !== undefined && item.size > this.options.maxFileBytes) {
      return this.failItem(connector, item.id, name, version, existing, `larger than the limit of ${this.options.maxFileBytes} bytes`);
    }
    let bytes: Buffer;
    try {
      bytes = await run.client.content(run.location, item.id, this.options.maxFileBytes);
    } catch (error) {
      if (error instanceof GraphError && !FATAL_CODES.has(error.code)) return this.failItem(connector, item.id, name, version, existing, error.message);
      throw error;
    }
    const type = this.detectType(bytes);
    if (type === undefined) return this.failItem(connector, item.id, name, version, existing, 'this kind of file cannot be processed');
    await this.bringIn(connector, item, name, version, existing, bytes, type);
  }

  /** Writes the item's document (in the place of the former one) with its item and its count, together. */
  private async bringIn(connector: ConnectorRow, item: DriveItem, name: string, version: string, existing: ConnectorItem | undefined, bytes: Buffer, type: string): Promise<void> {
    const replaced = existing?.document_id ?? null;
    const document = { bytes, type, source: name, accessUrl: typeof item.webUrl === 'string' ? item.webUrl.slice(0, 2000) : null, uploadFrom: 'document_library' as const };
    await this.intake.replace(ownerOf(connector), replaced === null ? [] : [replaced], [document], async (repos, { admitted }) => {
      await repos.connectors.saveItem({ connector_id: connector.id, item_id: item.id, document_id: admitted[0]!, etag: version, name, seen_sync: connector.sync_number });
      await repos.connectors.bump(connector.id, replaced === null ? 'sync_added' : 'sync_updated');
    });
  }

  /** An item that cannot be brought in: counted with why, its former document (now stale) removed, kept so that it is not fetched again until it changes. */
  private async failItem(connector: ConnectorRow, itemId: string, name: string, version: string, existing: ConnectorItem | undefined, reason: string): Promise<void> {
    const replaced = existing?.document_id ?? null;
    await this.intake.withdraw(ownerOf(connector), replaced === null ? [] : [replaced], async (repos) => {
      await repos.connectors.saveItem({ connector_id: connector.id, item_id: itemId, document_id: null, etag: version, name, seen_sync: connector.sync_number });
      await repos.connectors.bump(connector.id, 'sync_failed');
      const current = await repos.connectors.find(connector.organization_id, connector.id);
      const failures = JSON.parse(current?.sync_failures ?? '[]') as { name: string; reason: string }[];
      if (failures.length < FAILURES_SHOWN) {
        failures.push({ name, reason });
        await repos.connectors.update(connector.organization_id, connector.id, { sync_failures: JSON.stringify(failures) });
      }
    });
  }

  private async removeItem(connector: ConnectorRow, item: ConnectorItem): Promise<void> {
    await this.intake.withdraw(ownerOf(connector), item.document_id === null ? [] : [item.document_id], async (repos) => {
      await repos.connectors.deleteItem(connector.id, item.item_id);
      if (item.document_id !== null) await repos.connectors.bump(connector.id, 'sync_removed');
    });
  }

  /** After a full sync: items not seen in it are gone from the library or its scope. */
  private async removeUnseen(run: SyncRun): Promise<void> {
    for (const item of await this.store.repos.connectors.unseenItems(run.connector.id, run.connector.sync_number)) {
      run.stopping.throwIfAborted();
      await this.removeItem(run.connector, item);
    }
  }

  /** Ends the sync: its outcome on the connector, the next scheduled sync queued, and the job done, together. */
  private async finish(connector: ConnectorRow, complete: CompleteJob, outcome: { deltaLink: string } | { error: GraphError }): Promise<void> {
    const at = now();
    await this.store.transaction(async (repos) => {
      const current = await repos.connectors.find(connector.organization_id, connector.id);
      if (current) {
        const ended =
          'deltaLink' in outcome
            ? { sync_status: 'succeeded' as const, delta_link: outcome.deltaLink, full_sync: 0, sync_error_code: null, sync_error: null }
            : { sync_status: 'failed' as const, sync_error_code: outcome.error.code, sync_error: outcome.error.message.slice(0, 500) };
        await repos.connectors.update(connector.organization_id, connector.id, { ...ended, page_link: null, sync_finished_on: at, next_sync_on: null });
        if (current.schedule_minutes !== null && !(await repos.syncJobs.hasWaiting(connectorSubject(connector.id)))) {
          const due = await queueScheduledSync(repos, connectorSubject(connector.id), connector.organization_id, at, current.schedule_minutes);
          await repos.connectors.update(connector.organization_id, connector.id, { next_sync_on: due });
        }
      }
      await complete(repos);
    });
  }
}

// The Graph drive adapter of the sources engine (../source-sync.ts): brings a corpus to match a
// document library (SharePoint, OneDrive) linked by a connector. It reads Graph's delta pages from the
// stored delta link (a full sync without one), and for each item adds, replaces or removes the
// document made of it, matched by the Graph item id; an item whose etag and cTag did not change is
// not downloaded. Each item's change and its counter commit together (through the intake), and the
// page being read is recorded as the sync goes, so a sync stopped midway goes on from that page and
// re-applies nothing twice. A full sync (the first one, after another library or folder was chosen,
// or after Graph answered 410 for the delta link) ends by removing every item it did not see.
import { GraphClient, type DriveItem, type DriveLocation } from '../graph/graph-client.js';
import { GraphError, ResyncRequired } from '../graph/graph-errors.js';
import { acquireGraphToken } from '../graph/token.js';
import type { EgressClient } from '../../../net/egress.js';
import { displayName } from '../../documents/incoming.js';
import { openClientSecret } from '../../connectors/connector-secrets.js';
import type { ConnectorItem, ConnectorRow } from '../../connectors/connectors.repo.js';
import type { Job } from '../../../jobs/job-types.js';
import type { Repositories } from '../../../repositories.js';
import { endsTheSync, type SourceAdapter, type SyncContext } from '../source-adapter.js';
import type { SourceSyncChange } from '../source-sync.repo.js';
import { driveCursor, driveCursorOf, startingCursor, type DriveCursor } from '../graph/drive-cursor.js';
import type { AdapterDeps } from './adapter-deps.js';
import { connectorSubject } from '../sync-jobs.repo.js';
import { inScope, normalizeFolder, versionOf } from '../graph/library-scope.js';

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

/** The connector's documents are written in the name of whoever linked it. */
const ownerOf = (connector: ConnectorRow) => ({ organizationId: connector.organization_id, corpusId: connector.corpus_id, userId: connector.created_by });

interface SyncRun {
  connector: ConnectorRow;
  client: GraphClient;
  location: DriveLocation;
  folder: string;
  stopping: AbortSignal;
}

export class GraphDriveAdapter implements SourceAdapter<'connector.sync', ConnectorRow> {
  constructor(
    private readonly deps: AdapterDeps,
    private readonly egress: EgressClient,
    private readonly options: ConnectorSyncOptions,
  ) {}

  sourceOf(payload: Job<'connector.sync'>['payload']) {
    return { organizationId: payload.organizationId, sourceId: payload.connectorId };
  }

  subject = connectorSubject;

  readonly table = 'connectors';

  find(repos: Repositories, organizationId: number, connectorId: number): Promise<ConnectorRow | undefined> {
    return repos.connectors.find(organizationId, connectorId);
  }

  /** From the delta link; a full sync without one. */
  started(connector: ConnectorRow): SourceSyncChange {
    return { sync_cursor: JSON.stringify(startingCursor(driveCursorOf(connector.sync_cursor))) };
  }

  async sync(connector: ConnectorRow, context: SyncContext): Promise<SourceSyncChange> {
    return { sync_cursor: JSON.stringify(driveCursor({ deltaLink: await this.syncPages(connector, context) })) };
  }

  refusalOf(error: unknown) {
    return error instanceof GraphError ? error : undefined;
  }

  ended(): SourceSyncChange {
    return { next_sync_on: null };
  }

  async writeEnd(repos: Repositories, connector: ConnectorRow, fields: SourceSyncChange): Promise<boolean> {
    if (!(await repos.sourceSync.find(this.table, connector.organization_id, connector.id))) return false;
    await repos.sourceSync.update(this.table, connector.organization_id, connector.id, fields);
    return true;
  }

  /** Reads every delta page of this round and applies its items; answers the delta link of the next sync. */
  private async syncPages(connector: ConnectorRow, { stopping, wait }: SyncContext): Promise<string> {
    const clientSecret = openClientSecret(this.deps.secrets, connector);
    const token = await acquireGraphToken(this.egress, this.options.loginUrl, { tenantId: connector.tenant_id, clientId: connector.client_id, clientSecret }, stopping);
    const client = new GraphClient(this.egress, this.options.graphUrl, token, {
      wait,
      maxRetries: this.options.maxRetries,
      maxWaitMs: this.options.maxWaitMs,
      signal: stopping,
      now: () => Date.now(),
    });
    const location: DriveLocation = connector.drive_id !== null ? { driveId: connector.drive_id } : { siteId: connector.site_id ?? '' };
    const run: SyncRun = { connector, client, location, folder: normalizeFolder(connector.folder_path), stopping };
    const cursor = driveCursorOf(connector.sync_cursor);
    let full = cursor.full === true;
    let url = cursor.pageLink ?? cursor.deltaLink ?? client.fullSyncUrl(location);
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
        await this.saveCursor(connector, () => ({ full: true }));
        url = client.fullSyncUrl(location);
        continue;
      }
      for (const item of page.items) {
        stopping.throwIfAborted();
        await this.apply(run, item);
      }
      if (page.nextLink !== undefined) {
        const pageLink = page.nextLink;
        await this.saveCursor(connector, (current) => ({ ...current, pageLink }));
        url = pageLink;
        continue;
      }
      if (full) await this.removeUnseen(run);
      return page.deltaLink!;
    }
  }

  /**
   * Records where the sync is, so that one stopped midway goes on from there. Made from the stored
   * cursor, not this sync's: another library chosen meanwhile (its delta link dropped) stays so.
   */
  private async saveCursor(connector: ConnectorRow, change: (current: DriveCursor) => DriveCursor): Promise<void> {
    const { sourceSync } = this.deps.store.repos;
    const current = await sourceSync.find(this.table, connector.organization_id, connector.id);
    if (current) await sourceSync.update(this.table, connector.organization_id, connector.id, { sync_cursor: JSON.stringify(change(driveCursorOf(current.sync_cursor))) });
  }

  /** Brings one item's change to the corpus. */
  private async apply(run: SyncRun, item: DriveItem): Promise<void> {
    const { connectors } = this.deps.store.repos;
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
      if (error instanceof GraphError && !endsTheSync(error.code)) return this.failItem(connector, item.id, name, version, existing, error.message);
      throw error;
    }
    const type = this.deps.detectType(bytes);
    if (type === undefined) return this.failItem(connector, item.id, name, version, existing, 'this kind of file cannot be processed');
    await this.bringIn(connector, item, name, version, existing, bytes, type);
  }

  /** Writes the item's document (in the place of the former one) with its item and its count, together. */
  private async bringIn(connector: ConnectorRow, item: DriveItem, name: string, version: string, existing: ConnectorItem | undefined, bytes: Buffer, type: string): Promise<void> {
    const replaced = existing?.document_id ?? null;
    const document = { bytes, type, source: name, accessUrl: typeof item.webUrl === 'string' ? item.webUrl.slice(0, 2000) : null, uploadFrom: 'document_library' as const };
    await this.deps.intake.replace(ownerOf(connector), replaced === null ? [] : [replaced], [document], async (repos, { admitted }) => {
      await repos.connectors.saveItem({ connector_id: connector.id, item_id: item.id, document_id: admitted[0]!, etag: version, name, seen_sync: connector.sync_number });
      await repos.sourceSync.bump(this.table, connector.id, replaced === null ? 'sync_added' : 'sync_updated');
    });
  }

  /** An item that cannot be brought in: counted with why, its former document (now stale) removed, kept so that it is not fetched again until it changes. */
  private async failItem(connector: ConnectorRow, itemId: string, name: string, version: string, existing: ConnectorItem | undefined, reason: string): Promise<void> {
    const replaced = existing?.document_id ?? null;
    await this.deps.intake.withdraw(ownerOf(connector), replaced === null ? [] : [replaced], async (repos) => {
      await repos.connectors.saveItem({ connector_id: connector.id, item_id: itemId, document_id: null, etag: version, name, seen_sync: connector.sync_number });
      await repos.sourceSync.bump(this.table, connector.id, 'sync_failed');
      const current = await repos.connectors.find(connector.organization_id, connector.id);
      const failures = JSON.parse(current?.sync_failures ?? '[]') as { name: string; reason: string }[];
      if (failures.length < FAILURES_SHOWN) {
        failures.push({ name, reason });
        await repos.connectors.update(connector.organization_id, connector.id, { sync_failures: JSON.stringify(failures) });
      }
    });
  }

  private async removeItem(connector: ConnectorRow, item: ConnectorItem): Promise<void> {
    await this.deps.intake.withdraw(ownerOf(connector), item.document_id === null ? [] : [item.document_id], async (repos) => {
      await repos.connectors.deleteItem(connector.id, item.item_id);
      if (item.document_id !== null) await repos.sourceSync.bump(this.table, connector.id, 'sync_removed');
    });
  }

  /** After a full sync: items not seen in it are gone from the library or its scope. */
  private async removeUnseen(run: SyncRun): Promise<void> {
    for (const item of await this.deps.store.repos.connectors.unseenItems(run.connector.id, run.connector.sync_number)) {
      run.stopping.throwIfAborted();
      await this.removeItem(run.connector, item);
    }
  }
}

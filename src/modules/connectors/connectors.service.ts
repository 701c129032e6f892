// Document-library connectors: link a SharePoint / OneDrive library to a corpus, change or remove the
// link, and ask for a sync. Whoever may write to the corpus manages its connectors (owners and admins
// write to every corpus); a connector on a corpus the caller does not see is a 404 (checked before the
// flag, so that another organization's connector is a 404 whatever its flags). The
// document-library-index flag gates what its catalogue entry names: creating connectors and syncing;
// with it off, existing connectors can still be read, changed and removed. The sync itself is the sources engine's (src/modules/sources), run as a job.
import { now } from '../../clock.js';
import { BadRequest, Conflict, NotFound } from '../../errors.js';
import { sentFields } from '../../fields.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { Repositories, UnitOfWork } from '../../repositories.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import type { Actor } from '../auth/actor.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import { isOrganizationAdmin } from '../corpora/corpus.policy.js';
import type { FeatureFlagsService } from '../flags/flags.service.js';
import { clientSecretColumns, resealedClientSecret } from './connector-secrets.js';
import { presentConnector } from './connector.presenter.js';
import type { ConnectorWithAudit } from './connectors.repo.js';
import type { ConnectorView, CreateConnectorInput, UpdateConnectorInput } from './connectors.schemas.js';
import { connectorSubject, queueScheduledSync, queueSyncNow } from '../sources/index.js';

const FLAG = 'document-library-index';
const SETTINGS = ['name', 'tenant_id', 'client_id', 'site_id', 'drive_id', 'folder_path', 'schedule_minutes'] as const;
/** Settings that name another library or part of it: the next sync is a full one. */
const LOCATION = ['tenant_id', 'site_id', 'drive_id', 'folder_path'] as const;

/** Exactly one of site_id and drive_id names the library. */
function checkLocation(siteId: string | null, driveId: string | null): void {
  if ((siteId === null) === (driveId === null)) {
    throw new BadRequest('Name the library by site_id or by drive_id, one of the two', [{ pointer: '/body/drive_id', message: 'exactly one of site_id and drive_id' }]);
  }
}

export class ConnectorsService {
  constructor(
    private readonly store: UnitOfWork,
    private readonly flags: FeatureFlagsService,
    private readonly corpora: CorporaService,
    private readonly secrets: SecretBox,
    /** Wakes the worker when a sync is queued for now. */
    private readonly onEnqueued: () => void,
  ) {}

  /** The connector, if the caller may manage it: 404 for another organization's or a corpus the caller does not see. */
  private async requireConnector(actor: Actor, connectorId: number): Promise<ConnectorWithAudit> {
    const row = await this.store.repos.connectors.find(actor.organizationId, connectorId);
    if (!row) throw new NotFound('connector', connectorId);
    await this.corpora.requireWritableHolder(actor, row.corpus_id, 'connector', connectorId);
    return row;
  }

  async list(actor: Actor, window: ListWindow): Promise<ListSlice<ConnectorView>> {
    const corpusIds = isOrganizationAdmin(actor) ? undefined : await this.store.repos.connectors.writableCorpora(actor.organizationId, actor.userId);
    const { items, total } = await this.store.repos.connectors.list(actor.organizationId, corpusIds, window);
    return { items: items.map(presentConnector), total };
  }

  async get(actor: Actor, connectorId: number): Promise<ConnectorView> {
    return presentConnector(await this.requireConnector(actor, connectorId));
  }

  async create(actor: Actor, input: CreateConnectorInput): Promise<ConnectorView> {
    await this.corpora.requireCorpus(actor, input.corpus_id, 'write');
    await this.flags.require(actor, FLAG);
    checkLocation(input.site_id ?? null, input.drive_id ?? null);
    const at = now();
    const schedule = input.schedule_minutes ?? null;
    return this.store.transaction(async (repos) => {
      const { id } = await repos.connectors.insert({
        organization_id: actor.organizationId,
        corpus_id: input.corpus_id,
        name: input.name,
        tenant_id: input.tenant_id,
        client_id: input.client_id,
        ...clientSecretColumns(this.secrets, input.client_secret),
        site_id: input.site_id ?? null,
        drive_id: input.drive_id ?? null,
        folder_path: input.folder_path ?? null,
        schedule_minutes: schedule,
        created_on: at,
        created_by: actor.userId,
        modified_on: at,
        modified_by: actor.userId,
      });
      if (schedule !== null) await this.schedule(repos, actor.organizationId, id, at, schedule);
      return this.presentIn(repos, actor.organizationId, id);
    });
  }

  async update(actor: Actor, connectorId: number, input: UpdateConnectorInput): Promise<ConnectorView> {
    const current = await this.requireConnector(actor, connectorId);
    const fields = sentFields(input, SETTINGS);
    checkLocation(input.site_id === undefined ? current.site_id : input.site_id, input.drive_id === undefined ? current.drive_id : input.drive_id);
    const secret = input.client_secret === undefined ? resealedClientSecret(this.secrets, current) : clientSecretColumns(this.secrets, input.client_secret);
    const moved = LOCATION.some((name) => input[name] !== undefined && input[name] !== current[name]);
    const at = now();
    return this.store.transaction(async (repos) => {
      await repos.connectors.update(actor.organizationId, connectorId, {
        ...fields,
        ...secret,
        // Another library or folder: its items are matched anew by a full sync, which removes the old ones.
        ...(moved ? { sync_cursor: '{}' } : {}),
        modified_on: at,
        modified_by: actor.userId,
      });
      if (input.schedule_minutes !== undefined && input.schedule_minutes !== current.schedule_minutes && current.sync_status !== 'queued') {
        await repos.syncJobs.dropWaiting(connectorSubject(connectorId));
        await repos.connectors.update(actor.organizationId, connectorId, { next_sync_on: null });
        if (input.schedule_minutes !== null) await this.schedule(repos, actor.organizationId, connectorId, at, input.schedule_minutes);
      }
      return this.presentIn(repos, actor.organizationId, connectorId);
    });
  }

  /** Removes the connector and its jobs; the documents it brought in stay in the corpus. */
  async remove(actor: Actor, connectorId: number): Promise<{ id: number }> {
    await this.requireConnector(actor, connectorId);
    await this.store.repos.connectors.delete(actor.organizationId, connectorId);
    return { id: connectorId };
  }

  /**
   * Queues a sync now. A scheduled sync waiting for its time is brought forward (it is the same job);
   * while a sync is queued or running, a second request is a 409.
   */
  async requestSync(actor: Actor, connectorId: number): Promise<ConnectorView> {
    await this.requireConnector(actor, connectorId);
    await this.flags.require(actor, FLAG);
    const at = now();
    const view = await this.store.transaction(async (repos) => {
      if (!(await repos.connectors.markQueued(actor.organizationId, connectorId, at))) {
        throw new Conflict(`A sync of connector ${connectorId} is already queued or running; wait for it to end`);
      }
      await queueSyncNow(repos, connectorSubject(connectorId), actor.organizationId, at);
      return this.presentIn(repos, actor.organizationId, connectorId);
    });
    this.onEnqueued();
    return view;
  }

  /** The connector as a transaction sees it (the caller's access was checked before it began). */
  private async presentIn(repos: Repositories, organizationId: number, connectorId: number): Promise<ConnectorView> {
    const row = await repos.connectors.find(organizationId, connectorId);
    if (!row) throw new NotFound('connector', connectorId);
    return presentConnector(row);
  }

  private async schedule(repos: Repositories, organizationId: number, connectorId: number, at: string, minutes: number): Promise<void> {
    const due = await queueScheduledSync(repos, connectorSubject(connectorId), organizationId, at, minutes);
    await repos.connectors.update(organizationId, connectorId, { next_sync_on: due });
  }
}

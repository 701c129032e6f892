// The tool.import job: reads the document (fetched from its URL through the egress client, or the
// file stored when it was given), then makes each chosen operation a tool or skips it, recording
// every outcome with the import's counts as it goes — what a client polling the import sees. A run
// taken again (the worker stopped, the server restarted) goes on after the operations recorded: names
// are claimed in the document's order at every run, so they come out the same. A document that cannot
// be read fails the import with the reason; faults of the server are retried by the worker.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { now } from '../../clock.js';
import { AppError } from '../../errors.js';
import type { CompleteJob, JobHandler } from '../../jobs/job-handler.js';
import type { Job } from '../../jobs/job-types.js';
import type { EgressClient } from '../../net/egress.js';
import type { UnitOfWork } from '../../repositories.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { chooseOperations, importOperations, loadOpenApiDocument, type ApiToolConfig, type LoadedDocument } from '../../tools/index.js';
import { actorOfUser } from '../auth/actor.js';
import { checkOperation, isChecked, type CheckedOperation, type OperationOutcome } from '../tools/imported-operations.js';
import type { ImportLimits } from '../tools/openapi-import.js';
import type { ToolsService } from '../tools/tools.service.js';
import type { StoredImportOptions } from './tool-imports.service.js';

/**
 * Operations checked between two turns of the event loop, so that other requests are served meanwhile:
 * checking one operation's settings (compiling its parameters' schema) takes a few milliseconds.
 */
const OPERATIONS_PER_TURN = 4;
/**
 * Operations saved, with their outcomes and the counts, in one transaction: one commit for many (on
 * PostgreSQL a commit per operation made GitHub's import five times slower), and what a client polls
 * moves on by this much at a time.
 */
const OPERATIONS_PER_BATCH = 50;

export interface ToolImportJobDeps {
  store: UnitOfWork;
  tools: ToolsService;
  blobs: BlobStore;
  egress: EgressClient;
  timeoutMs: number;
  limits: ImportLimits;
}

type ImportRow = NonNullable<Awaited<ReturnType<UnitOfWork['repos']['toolImports']['findForRun']>>>;

export class ToolImportJob implements JobHandler<'tool.import'> {
  constructor(private readonly deps: ToolImportJobDeps) {}

  async run(job: Job<'tool.import'>, complete: CompleteJob, stopping: AbortSignal): Promise<void> {
    const { organizationId, toolImportId } = job.payload;
    const repos = this.deps.store.repos;
    const row = await repos.toolImports.findForRun(organizationId, toolImportId);
    if (!row || row.status === 'completed' || row.status === 'failed') return;
    const actor = await actorOfUser(repos.users, row.organization_id, row.created_by);
    if (!actor) return this.end(row, 'failed', 'The user who started the import is no longer active', complete);
    if (row.status === 'queued') await repos.toolImports.start(organizationId, row.id, now());

    let loaded: LoadedDocument;
    let refs: ReturnType<typeof chooseOperations>;
    const options = JSON.parse(row.options) as StoredImportOptions;
    try {
      loaded = await this.load(row);
      refs = chooseOperations(loaded.document, options.operations ?? undefined, Number.POSITIVE_INFINITY);
    } catch (error) {
      if (error instanceof AppError && error.status < 500) return this.end(row, 'failed', error.message, complete);
      throw error;
    }
    if (row.operations_total !== refs.length) await repos.toolImports.setTotal(row.id, refs.length, now());

    const recorded = await repos.toolImports.recordedCount(row.id);
    const sealed = { secret_sealed: row.secret_sealed, secret_key_id: row.secret_key_id, secret_hint: row.secret_hint };
    const check = this.deps.tools.checkImported(organizationId, row.secret_sealed !== null, '/config');
    const choices = { overrides: (options.overrides ?? undefined) as Partial<ApiToolConfig> | undefined };
    const save = (batch: (CheckedOperation | OperationOutcome)[]) =>
      this.deps.store.transaction(async (repos) => {
        const saved = await this.deps.tools.saveImported(actor, organizationId, batch.filter(isChecked), sealed, options.enabled, repos);
        const outcomes = [...saved, ...batch.filter((item): item is OperationOutcome => !isChecked(item))].sort((a, b) => a.position - b.position);
        await repos.toolImports.record(row.id, outcomes.map(({ refusal: _refusal, details, ...report }) => ({ ...report, details: JSON.stringify(details) })), now());
      });
    const results = importOperations(loaded.document, refs, { sourceUrl: loaded.sourceUrl, serverUrl: options.server_url ?? undefined, namePrefix: options.name_prefix, maxSchemaParts: this.deps.limits.schemaParts });
    let batch: (CheckedOperation | OperationOutcome)[] = [];
    let position = 0;
    for (const result of results) {
      if (position < recorded) {
        position++;
        continue;
      }
      stopping.throwIfAborted();
      batch.push(await checkOperation(result, position, choices, check));
      if (++position % OPERATIONS_PER_TURN === 0) await nextTurn();
      if (batch.length === OPERATIONS_PER_BATCH) {
        await save(batch);
        batch = [];
      }
    }
    await save(batch);
    await this.end(row, 'completed', null, complete);
  }

  async onFailed(job: Job<'tool.import'>, reason: string): Promise<void> {
    const row = await this.deps.store.repos.toolImports.findForRun(job.payload.organizationId, job.payload.toolImportId);
    if (!row) return;
    await this.deps.store.repos.toolImports.finish(row.id, 'failed', `The import stopped on a fault of the server: ${reason.slice(0, 300)}`, now());
    if (row.document_key !== null) await this.deps.blobs.delete(row.document_key);
  }

  /** The document, from its URL or the file stored when it was given. */
  private async load(row: ImportRow): Promise<LoadedDocument> {
    if (row.source_url !== null) return loadOpenApiDocument({ url: row.source_url }, this.deps.egress, this.deps.timeoutMs, this.deps.limits);
    const bytes = row.document_key === null ? undefined : await this.deps.blobs.get(row.document_key);
    if (bytes === undefined) throw new AppError(400, 'bad_request', 'The document given with the import is no longer stored');
    return loadOpenApiDocument({ document: bytes.toString('utf8') }, this.deps.egress, this.deps.timeoutMs, this.deps.limits);
  }

  private async end(row: ImportRow, status: 'completed' | 'failed', error: string | null, complete: CompleteJob): Promise<void> {
    await this.deps.store.transaction(async (repos) => {
      await repos.toolImports.finish(row.id, status, error, now());
      await complete(repos);
    });
    if (row.document_key !== null) await this.deps.blobs.delete(row.document_key);
  }
}

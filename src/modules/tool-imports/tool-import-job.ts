// The tool.import job: reads the document (fetched from its URL through the egress client, or the
// file stored when it was given or when a preview of its URL had fetched it), then makes each chosen operation a tool or skips it, recording
// every outcome with the import's counts as it goes — what a client polling the import sees. The
// document is parsed, dereferenced and made into tool settings in a thread (readDocumentOperations),
// a few operations at a time: a second of GitHub's description on the event loop held every request.
// A run taken again (the worker stopped, the server restarted) goes on after the operations
// recorded: names are claimed in the document's order at every run, so they come out the same. A
// document that cannot be read, or that takes the thread past its memory or time, fails the import
// with the reason; faults of the server are retried by the worker.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { now } from '../../clock.js';
import { AppError } from '../../errors.js';
import type { CompleteJob, JobHandler } from '../../jobs/job-handler.js';
import type { Job } from '../../jobs/job-types.js';
import type { EgressClient } from '../../net/egress.js';
import type { UnitOfWork } from '../../repositories.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { readDocumentOperations, type ApiToolConfig, type OperationResult, type OperationsReading } from '../../tools/index.js';
import { actorOfUser } from '../auth/actor.js';
import { checkOperation, isChecked, type CheckedOperation, type OperationOutcome } from '../tools/imported-operations.js';
import type { ImportLimits } from '../tools/openapi-import.js';
import type { ToolsService } from '../tools/tools.service.js';
import type { StoredImportOptions } from './tool-imports.service.js';

/**
 * Operations checked between two turns of the event loop, so that other requests are served meanwhile:
 * checking one operation's settings takes a millisecond or two (its parameters' schema, the costly
 * part, was compiled by the reading thread).
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

/** The document's reading failed for a reason of the document (its thread out of memory or time): the import fails with it. */
class DocumentRefused extends Error {}

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

    const options = JSON.parse(row.options) as StoredImportOptions;
    const recorded = await repos.toolImports.recordedCount(row.id);
    let reading: OperationsReading;
    try {
      reading = await this.read(row, options, recorded, stopping);
    } catch (error) {
      if (error instanceof AppError && error.status < 500) return this.end(row, 'failed', error.message, complete);
      throw error;
    }
    try {
      if (row.operations_total !== reading.total) await repos.toolImports.setTotal(row.id, reading.total, now());
      const sealed = { secret_sealed: row.secret_sealed, secret_key_id: row.secret_key_id, secret_hint: row.secret_hint };
      const check = this.deps.tools.checkImported(organizationId, row.secret_sealed !== null, '/config');
      const choices = { overrides: (options.overrides ?? undefined) as Partial<ApiToolConfig> | undefined };
      const save = (batch: (CheckedOperation | OperationOutcome)[]) =>
        this.deps.store.transaction(async (repos) => {
          const saved = await this.deps.tools.saveImported(actor, organizationId, batch.filter(isChecked), sealed, options.enabled, repos);
          const outcomes = [...saved, ...batch.filter((item): item is OperationOutcome => !isChecked(item))].sort((a, b) => a.position - b.position);
          await repos.toolImports.record(row.id, outcomes.map(({ refusal: _refusal, details, ...report }) => ({ ...report, details: JSON.stringify(details) })), now());
        });
      let batch: (CheckedOperation | OperationOutcome)[] = [];
      let position = recorded;
      for (let results = await this.next(reading); results.length > 0; results = await this.next(reading)) {
        for (const result of results) {
          stopping.throwIfAborted();
          batch.push(await checkOperation(result, position, choices, check));
          if (++position % OPERATIONS_PER_TURN === 0) await nextTurn();
          if (batch.length === OPERATIONS_PER_BATCH) {
            await save(batch);
            batch = [];
          }
        }
      }
      await save(batch);
    } catch (error) {
      if (error instanceof DocumentRefused) return this.end(row, 'failed', error.message, complete);
      throw error;
    } finally {
      await reading.close();
    }
    await this.end(row, 'completed', null, complete);
  }

  async onFailed(job: Job<'tool.import'>, reason: string): Promise<void> {
    const row = await this.deps.store.repos.toolImports.findForRun(job.payload.organizationId, job.payload.toolImportId);
    if (!row) return;
    await this.deps.store.repos.toolImports.finish(row.id, 'failed', `The import stopped on a fault of the server: ${reason.slice(0, 300)}`, now());
    if (row.document_key !== null) await this.deps.blobs.delete(row.document_key);
  }

  /** The document's operations, read from the file stored with the import (given, or fetched by a preview of its URL), else from its URL. */
  private async read(row: ImportRow, options: StoredImportOptions, recorded: number, stopping: AbortSignal): Promise<OperationsReading> {
    const { limits } = this.deps;
    const reading = {
      limits,
      fetchTimeoutMs: this.deps.timeoutMs,
      chosen: options.operations ?? undefined,
      maxTools: Number.POSITIVE_INFINITY,
      importOptions: { serverUrl: options.server_url ?? undefined, namePrefix: options.name_prefix, maxSchemaParts: limits.schemaParts },
      skip: recorded,
      signal: stopping,
    };
    if (row.document_key === null) return readDocumentOperations({ url: row.source_url! }, this.deps.egress, reading);
    const bytes = await this.deps.blobs.get(row.document_key);
    if (bytes === undefined) throw new AppError(400, 'bad_request', 'The document given with the import is no longer stored');
    // A document a preview fetched: relative server URLs are read from where it was fetched.
    return readDocumentOperations({ document: bytes, sourceUrl: row.source_url ?? undefined }, this.deps.egress, reading);
  }

  /** The next results of the reading; its thread out of memory or time is the import's failure (DocumentRefused). */
  private async next(reading: OperationsReading): Promise<OperationResult[]> {
    try {
      return await reading.next();
    } catch (error) {
      if (error instanceof AppError && error.status < 500) throw new DocumentRefused(error.message);
      throw error;
    }
  }

  private async end(row: ImportRow, status: 'completed' | 'failed', error: string | null, complete: CompleteJob): Promise<void> {
    await this.deps.store.transaction(async (repos) => {
      await repos.toolImports.finish(row.id, status, error, now());
      await complete(repos);
    });
    if (row.document_key !== null) await this.deps.blobs.delete(row.document_key);
  }
}

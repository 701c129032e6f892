// Imports of a whole OpenAPI document as API tools, run as a job (tool-import-job.ts): asked for with
// the document's URL or the document itself, then polled for their counts and read for their report,
// one row per operation (imported, or skipped with the reason and the JSON pointer). Owners and admins
// start and read them; starting one needs the api-tools flag, as making any API tool does.
import { now } from '../../clock.js';
import { BadRequest, PayloadTooLarge } from '../../errors.js';
import { NotFound } from '../../errors.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { UnitOfWork } from '../../repositories.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { EgressClient } from '../../net/egress.js';
import { previewDocument, requireOneSource, type DocumentLimits } from '../../tools/index.js';
import type { Actor } from '../auth/actor.js';
import { authorize } from '../auth/roles.js';
import { requireOwnOrganization } from '../organizations/organizations.service.js';
import { secretColumns } from '../tools/tool-secrets.js';
import { toolPolicy } from '../tools/tool.policy.js';
import type { ToolsService } from '../tools/tools.service.js';
import { PreviewedDocuments } from './previewed-documents.js';
import type { OperationRow, ToolImportRecord } from './tool-imports.repo.js';
import type { OperationReport, PreviewToolImportInput, StartToolImportInput, ToolImportPreview, ToolImportView } from './tool-imports.schemas.js';

/** The choices of an import kept with it: what the job needs besides the document and the secret. */
export interface StoredImportOptions {
  operations: string[] | null;
  server_url: string | null;
  name_prefix: string;
  overrides: Record<string, unknown> | null;
  enabled: boolean;
}

export function presentImport(row: ToolImportRecord): ToolImportView {
  const options = JSON.parse(row.options) as StoredImportOptions;
  const progress = row.status === 'completed' ? 1 : row.operations_total ? Math.min(1, Math.round((row.operations_done / row.operations_total) * 1000) / 1000) : 0;
  return {
    id: row.id,
    status: row.status,
    url: row.source_url,
    operations: options.operations,
    server_url: options.server_url,
    name_prefix: options.name_prefix,
    secret_hint: row.secret_hint,
    operations_total: row.operations_total,
    operations_done: row.operations_done,
    imported: row.imported,
    skipped: row.skipped,
    progress,
    error: row.error,
    started_on: row.started_on,
    finished_on: row.finished_on,
    created_on: row.created_on,
    created_by: row.created_by_email,
  };
}

const presentOperation = (row: OperationRow): OperationReport => ({ ...row, details: JSON.parse(row.details) as OperationReport['details'] });

export class ToolImportsService {
  /** Documents previews fetched, for the imports that follow them (a budget of one document at the byte limit). */
  private readonly previewed: PreviewedDocuments;

  constructor(
    private readonly store: UnitOfWork,
    private readonly tools: ToolsService,
    private readonly secrets: SecretBox,
    private readonly blobs: BlobStore,
    private readonly options: { maxDocumentBytes: number; wake: () => void; preview: { egress: EgressClient; timeoutMs: number; limits: DocumentLimits } },
  ) {
    this.previewed = new PreviewedDocuments(options.maxDocumentBytes);
  }

  /**
   * The operations of a document, read while the request waits (its $refs left unresolved), so that
   * the ones to import can be chosen: same rules as an import (who, the flag, the bounds, the egress),
   * and read in the same kind of thread, so that a large document does not hold the event loop.
   */
  async preview(actor: Actor, organizationId: number, input: PreviewToolImportInput, signal?: AbortSignal): Promise<ToolImportPreview> {
    await this.tools.requireImporter(actor, organizationId);
    requireOneSource(input, '/body');
    const { egress, timeoutMs, limits } = this.options.preview;
    const { summary, fetched } = await previewDocument(input, egress, { limits, fetchTimeoutMs: timeoutMs, signal });
    const ref = input.url !== undefined && fetched !== undefined ? this.previewed.keep(organizationId, input.url, fetched) : null;
    return { ...summary, document_ref: ref };
  }

  /** The document to store with an import: the one given, else the one a preview of its url fetched (document_ref), if still kept. */
  private documentOf(organizationId: number, input: StartToolImportInput): Buffer | undefined {
    if (input.document_ref !== undefined && input.url === undefined) {
      throw new BadRequest('document_ref goes with the url that was previewed', [{ pointer: '/body/document_ref', message: 'needs url' }]);
    }
    if (input.document === undefined) return input.document_ref === undefined ? undefined : this.previewed.take(organizationId, input.url!, input.document_ref);
    const text = typeof input.document === 'string' ? input.document : JSON.stringify(input.document);
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length === 0) throw new BadRequest('The document is empty', [{ pointer: '/body/document', message: 'must not be empty' }]);
    if (bytes.length > this.options.maxDocumentBytes) throw new PayloadTooLarge(`The document is larger than ${this.options.maxDocumentBytes} bytes`);
    return bytes;
  }

  /** Stores the document given (or its URL, with the document a preview fetched there) and the choices, and queues the job: 202, polled with get. */
  async start(actor: Actor, organizationId: number, input: StartToolImportInput): Promise<ToolImportView> {
    await this.tools.requireImporter(actor, organizationId);
    requireOneSource(input, '/body');
    const document = this.documentOf(organizationId, input);
    const documentKey = document === undefined ? null : await this.blobs.put(document);
    const options: StoredImportOptions = {
      operations: input.operations ?? null,
      server_url: input.server_url ?? null,
      name_prefix: input.name_prefix ?? '',
      overrides: input.overrides ?? null,
      enabled: input.enabled !== false,
    };
    const at = now();
    const sealed = secretColumns(this.secrets, input.secret);
    const id = await this.store.transaction(async (repos) => {
      const importId = await repos.toolImports.insert({
        organization_id: organizationId,
        status: 'queued',
        source_url: input.url ?? null,
        document_key: documentKey,
        options: JSON.stringify(options),
        secret_sealed: sealed.secret_sealed ?? null,
        secret_key_id: sealed.secret_key_id ?? null,
        secret_hint: sealed.secret_hint ?? null,
        operations_total: null,
        error: null,
        started_on: null,
        finished_on: null,
        created_on: at,
        created_by: actor.userId,
        modified_on: at,
      });
      await repos.jobs.enqueue('tool.import', { organizationId, toolImportId: importId }, at);
      return importId;
    });
    this.options.wake();
    return this.get(actor, organizationId, id);
  }

  private async requireImport(actor: Actor, organizationId: number, importId: number): Promise<ToolImportRecord> {
    requireOwnOrganization(actor, organizationId);
    const row = await this.store.repos.toolImports.find(organizationId, importId);
    if (!row) throw new NotFound('tool_import', importId);
    authorize(toolPolicy.mayManage(actor), 'Only owners and admins may read tool imports');
    return row;
  }

  async get(actor: Actor, organizationId: number, importId: number): Promise<ToolImportView> {
    return presentImport(await this.requireImport(actor, organizationId, importId));
  }

  async list(actor: Actor, organizationId: number, window: ListWindow): Promise<ListSlice<ToolImportView>> {
    requireOwnOrganization(actor, organizationId);
    authorize(toolPolicy.mayManage(actor), 'Only owners and admins may read tool imports');
    const { items, total } = await this.store.repos.toolImports.list(organizationId, window);
    return { items: items.map(presentImport), total };
  }

  /** The report: each operation met, in the document's order, imported (its tool) or skipped (why, where). */
  async operations(actor: Actor, organizationId: number, importId: number, status: 'imported' | 'skipped' | undefined, window: ListWindow): Promise<ListSlice<OperationReport>> {
    await this.requireImport(actor, organizationId, importId);
    const { items, total } = await this.store.repos.toolImports.operations(importId, status, window);
    return { items: items.map(presentOperation), total };
  }
}

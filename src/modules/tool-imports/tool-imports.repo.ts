// Imports of OpenAPI documents as tools, and the report of each: one row per operation met, written
// with the import's counts in one transaction, so that the counts a client polls always agree with
// the report.
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { selectSlice } from '../../db/list-slice.js';
import type { DB, ToolImportOperationRow, ToolImportsTable, ToolImportStatus } from '../../db/schema.js';
import type { ListSlice, ListWindow } from '../../pagination.js';

export type NewToolImport = Insertable<ToolImportsTable>;
export type ToolImportRecord = Selectable<ToolImportsTable> & { created_by_email: string };

/** One operation's outcome as stored: its details as JSON text. */
export type OperationRow = Omit<ToolImportOperationRow, 'id' | 'tool_import_id'>;

export class ToolImportsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  private imports(organizationId: number) {
    return this.db
      .selectFrom('tool_imports as i')
      .innerJoin('users as creator', 'creator.id', 'i.created_by')
      .where('i.organization_id', '=', organizationId)
      .selectAll('i')
      .select('creator.email as created_by_email');
  }

  async insert(row: NewToolImport): Promise<number> {
    return (await this.db.insertInto('tool_imports').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  find(organizationId: number, importId: number): Promise<ToolImportRecord | undefined> {
    return this.imports(organizationId).where('i.id', '=', importId).executeTakeFirst();
  }

  list(organizationId: number, window: ListWindow): Promise<ListSlice<ToolImportRecord>> {
    return selectSlice(this.imports(organizationId).orderBy('i.id', 'desc'), window);
  }

  async start(organizationId: number, importId: number, at: string): Promise<void> {
    await this.db.updateTable('tool_imports').set({ status: 'running', started_on: at, modified_on: at }).where('organization_id', '=', organizationId).where('id', '=', importId).execute();
  }

  async setTotal(importId: number, total: number, at: string): Promise<void> {
    await this.db.updateTable('tool_imports').set({ operations_total: total, modified_on: at }).where('id', '=', importId).execute();
  }

  /** How many operations are recorded: a run taken again goes on after them. */
  async recordedCount(importId: number): Promise<number> {
    const row = await this.db.selectFrom('tool_import_operations').select((eb) => eb.fn.countAll<number>().as('count')).where('tool_import_id', '=', importId).executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** Outcomes of operations and the import's counts (call inside a transaction). */
  async record(importId: number, operations: OperationRow[], at: string): Promise<void> {
    if (operations.length === 0) return;
    await this.db
      .insertInto('tool_import_operations')
      .values(operations.map((operation) => ({ tool_import_id: importId, ...operation })))
      .execute();
    const imported = operations.filter((operation) => operation.status === 'imported').length;
    await this.db
      .updateTable('tool_imports')
      .set({
        operations_done: sql`operations_done + ${operations.length}`,
        imported: sql`imported + ${imported}`,
        skipped: sql`skipped + ${operations.length - imported}`,
        modified_on: at,
      })
      .where('id', '=', importId)
      .execute();
  }

  /** The import's end: the document's file and the secret are no longer kept. */
  async finish(importId: number, status: Extract<ToolImportStatus, 'completed' | 'failed'>, error: string | null, at: string): Promise<void> {
    await this.db
      .updateTable('tool_imports')
      .set({ status, error, finished_on: at, modified_on: at, document_key: null, secret_sealed: null, secret_key_id: null })
      .where('id', '=', importId)
      .execute();
  }

  /** The import as the worker sees it, whatever its organization (the job names it). */
  findForRun(organizationId: number, importId: number) {
    return this.db.selectFrom('tool_imports').selectAll().where('organization_id', '=', organizationId).where('id', '=', importId).executeTakeFirst();
  }

  operations(importId: number, status: 'imported' | 'skipped' | undefined, window: ListWindow): Promise<ListSlice<OperationRow>> {
    let query = this.db
      .selectFrom('tool_import_operations')
      .select(['position', 'operation', 'method', 'path', 'pointer', 'status', 'reason', 'details', 'tool_id', 'tool_name'])
      .where('tool_import_id', '=', importId);
    if (status !== undefined) query = query.where('status', '=', status);
    return selectSlice(query.orderBy('position'), window);
  }
}

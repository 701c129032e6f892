import type { Insertable, Kysely, Updateable } from 'kysely';
import { nameTaken } from '../../db/conflicts.js';
import type { Dialect } from '../../db/dialect.js';
import type { CorporaTable, CorpusPermission, DB } from '../../db/schema.js';
import { Conflict } from '../../errors.js';
import { selectSlice } from '../../db/list-slice.js';
import { precompiled } from '../../db/precompiled.js';
import type { ListWindow } from '../../pagination.js';

/** A corpus's fields as services give them: conversation starters as a list, stored as JSON here. */
type CorpusFields<Row> = Omit<Row, 'conversation_starters'> & { conversation_starters?: string[] };

function encoded<Row>(fields: CorpusFields<Row>): Row {
  const { conversation_starters: starters, ...rest } = fields;
  return (starters === undefined ? rest : { ...rest, conversation_starters: JSON.stringify(starters) }) as Row;
}

/** Corpora of the organization with the permission the user holds on each (null if none). */
function withGrant(db: Kysely<DB>, organizationId: number, userId: number) {
  return db
    .selectFrom('corpora as c')
    .innerJoin('users as creator', 'creator.id', 'c.created_by')
    .innerJoin('users as modifier', 'modifier.id', 'c.modified_by')
    .leftJoin('corpus_permissions as p', (join) => join.onRef('p.corpus_id', '=', 'c.id').on('p.user_id', '=', userId))
    .where('c.organization_id', '=', organizationId);
}

// Run before every request on a corpus (the permission check): compiled once (src/db/precompiled.ts).
const corpusWithGrant = precompiled(3, (db: Kysely<DB>, organizationId: number, corpusId: number, userId: number) =>
  withGrant(db, organizationId, userId)
    .selectAll('c')
    .select(['p.permission as granted', 'creator.email as created_by_email', 'modifier.email as modified_by_email'])
    .where('c.id', '=', corpusId),
);

export class CorporaRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** The corpus's listing version (migration 0060, moved by triggers): 0 until a write moves it. */
  async listingVersion(corpusId: number): Promise<number> {
    const row = await this.db.selectFrom('corpus_listing_versions').select('value').where('corpus_id', '=', corpusId).executeTakeFirst();
    return row === undefined ? 0 : Number(row.value);
  }

  private withGrant(organizationId: number, userId: number) {
    return withGrant(this.db, organizationId, userId);
  }

  async findWithGrant(organizationId: number, corpusId: number, userId: number) {
    return (await corpusWithGrant(this.db, organizationId, corpusId, userId))[0];
  }

  /** Corpora of the organization; with onlyGrantedTo, those the user holds a permission on. */
  list(organizationId: number, window: ListWindow, options: { userId: number; onlyGranted: boolean; q?: string | undefined }) {
    let query = this.withGrant(organizationId, options.userId);
    if (options.onlyGranted) query = query.where('p.permission', 'is not', null);
    const q = options.q;
    if (q) query = query.where((eb) => this.dialect.containsIgnoringCase(eb.ref('c.name'), q));
    const rows = query
      .selectAll('c')
      .select(['p.permission as granted', 'creator.email as created_by_email', 'modifier.email as modified_by_email'])
      .orderBy('c.id', 'desc');
    return selectSlice(rows, window);
  }

  async insert(corpus: CorpusFields<Insertable<CorporaTable>>) {
    try {
      return await this.db.insertInto('corpora').values(encoded(corpus)).returningAll().executeTakeFirstOrThrow();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'a corpus', corpus.name);
    }
  }

  async update(organizationId: number, corpusId: number, fields: CorpusFields<Updateable<CorporaTable>>): Promise<void> {
    try {
      await this.db.updateTable('corpora').set(encoded(fields)).where('organization_id', '=', organizationId).where('id', '=', corpusId).execute();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'a corpus', fields.name);
    }
  }

  async delete(organizationId: number, corpusId: number): Promise<void> {
    await this.db.deleteFrom('corpora').where('organization_id', '=', organizationId).where('id', '=', corpusId).execute();
  }

  /** Counts of the corpus's documents that are not deleted, by step, and how many failed. */
  async documentCounts(organizationId: number, corpusId: number) {
    const rows = await this.db
      .selectFrom('documents')
      .select(['step', (eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.count<number>('failed_on').as('failed')])
      .where('organization_id', '=', organizationId)
      .where('corpus_id', '=', corpusId)
      .where('deleted_on', 'is', null)
      .groupBy('step')
      .execute();
    return rows.map((row) => ({ step: row.step, count: Number(row.count), failed: Number(row.failed) }));
  }

  // Permissions

  listPermissions(corpusId: number) {
    return this.db
      .selectFrom('corpus_permissions as p')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .select(['p.user_id', 'u.email', 'p.permission', 'p.created_on'])
      .where('p.corpus_id', '=', corpusId)
      .orderBy('p.user_id')
      .execute();
  }

  async grant(corpusId: number, userId: number, permission: CorpusPermission, by: number, at: string): Promise<void> {
    await this.db
      .insertInto('corpus_permissions')
      .values({ corpus_id: corpusId, user_id: userId, permission, created_on: at, created_by: by })
      .onConflict((oc) => oc.columns(['corpus_id', 'user_id']).doUpdateSet({ permission }))
      .execute();
  }

  async revoke(corpusId: number, userId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('corpus_permissions').where('corpus_id', '=', corpusId).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  // Agents connected to the corpus

  listAgents(corpusId: number) {
    return this.db
      .selectFrom('corpus_agents as ca')
      .innerJoin('agents as a', 'a.id', 'ca.agent_id')
      .select(['a.id', 'a.name', 'a.status', 'ca.created_on'])
      .where('ca.corpus_id', '=', corpusId)
      .where('a.deleted_on', 'is', null)
      .orderBy('a.id')
      .execute();
  }

  /** Corpora an agent draws on, for the agent's status. */
  corporaOfAgent(organizationId: number, agentId: number) {
    return this.db
      .selectFrom('corpus_agents as ca')
      .innerJoin('corpora as c', 'c.id', 'ca.corpus_id')
      .select(['c.id', 'c.name'])
      .where('c.organization_id', '=', organizationId)
      .where('ca.agent_id', '=', agentId)
      .orderBy('c.id')
      .execute();
  }
}

export type CorpusWithGrant = NonNullable<Awaited<ReturnType<CorporaRepo['findWithGrant']>>>;

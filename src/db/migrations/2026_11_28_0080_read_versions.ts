// Read versions: counters the database itself moves, in the same transaction, with every write that
// can change what a read shows, so that a GET can name its answer (ETag) and answer 304 without
// reading the rows. One table, a counter per (scope, subject):
// - `agent` (agent id): one agent as GET /api/v2/agents/{id} shows it — its row, the corpora it is
//   connected to, its creator's and last modifier's e-mails;
// - `agents` (organization id): the organization's agents as the listings show them, the same parts;
// - `corpora` (organization id): the organization's corpora as the listing shows them — their rows,
//   who holds which permission, the counts of their documents (through each corpus's listing version,
//   migration 0060, which the documents move) and their creators' e-mails;
// - `user` (user id): the permission epoch of a user — anything that decides what they may read: their
//   role, organization or deactivation, a corpus permission granted, changed or revoked, a team or
//   project joined, changed or left.
// Triggers rather than calls in each service, so that no path can forget one (jobs, other server
// processes and an operator's SQL included). No foreign keys: a row outlives its subject, so that a
// subject given the id of a deleted one (SQLite may reuse ids) starts above every tag given for the
// old one. A subject without a row is at 0.
// Frozen: change the schema in a new migration.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

type Scope = 'agent' | 'agents' | 'corpora' | 'user';

/** Each trigger: its name, the table and event, the (scope, subject id) pairs it moves, and for an update the columns whose change matters (all when none). */
interface Watch {
  name: string;
  table: string;
  event: 'insert' | 'update' | 'delete';
  moves: [Scope, string][];
  columns?: string[];
}

const both = (select: (row: 'old' | 'new') => string): string[] => [select('old'), select('new')];
const agentOrganization = (row: 'old' | 'new') => `(select organization_id from agents where id = ${row}.agent_id)`;
const corpusOrganization = (row: 'old' | 'new') => `(select organization_id from corpora where id = ${row}.corpus_id)`;

/** The same moves for an insert (new), a delete (old) and an update (both rows, which may differ). */
function onEveryWrite(name: string, table: string, moves: (row: 'old' | 'new') => [Scope, string][], columns?: string[]): Watch[] {
  return [
    { name: `${name}_insert`, table, event: 'insert', moves: moves('new') },
    { name: `${name}_update`, table, event: 'update', moves: [...moves('old'), ...moves('new')], ...(columns ? { columns } : {}) },
    { name: `${name}_delete`, table, event: 'delete', moves: moves('old') },
  ];
}

const WATCHED: Watch[] = [
  // Every column of an agent: what is not shown today may be tomorrow, and a write no read shows costs a 200.
  ...onEveryWrite('agents', 'agents', (row) => [
    ['agent', `${row}.id`],
    ['agents', `${row}.organization_id`],
  ]),
  ...onEveryWrite('corpus_agents', 'corpus_agents', (row) => [
    ['agent', `${row}.agent_id`],
    ['agents', agentOrganization(row)],
  ]),
  ...onEveryWrite('corpora', 'corpora', (row) => [['corpora', `${row}.organization_id`]]),
  // A corpus's listing version moves with its documents (their counts) and its users' e-mails.
  { name: 'corpus_listing_versions_insert', table: 'corpus_listing_versions', event: 'insert', moves: [['corpora', corpusOrganization('new')]] },
  { name: 'corpus_listing_versions_update', table: 'corpus_listing_versions', event: 'update', moves: [['corpora', corpusOrganization('new')]] },
  ...onEveryWrite('corpus_permissions', 'corpus_permissions', (row) => [
    ['corpora', corpusOrganization(row)],
    ['user', `${row}.user_id`],
  ]),
  ...onEveryWrite('team_members', 'team_members', (row) => [['user', `${row}.user_id`]]),
  ...onEveryWrite('project_members', 'project_members', (row) => [['user', `${row}.user_id`]]),
  // The agents show who created and last changed them, by e-mail.
  {
    name: 'users_email_update',
    table: 'users',
    event: 'update',
    columns: ['email', 'organization_id'],
    moves: [
      ...both((row) => `${row}.organization_id`).map((id): [Scope, string] => ['agents', id]),
      ['agent', 'any_agent_of_the_user'],
    ],
  },
  { name: 'users_access_update', table: 'users', event: 'update', columns: ['role', 'organization_id', 'deactivated_on'], moves: [['user', 'new.id']] },
];

/** The select of the (scope, subject) pairs a trigger moves, each once (an upsert may not touch a row twice). */
function movedPairs(moves: [Scope, string][]): string {
  return moves
    .map(([scope, id]) =>
      id === 'any_agent_of_the_user'
        ? `select '${scope}' as scope, id as subject_id from agents ` +
          'where organization_id in (old.organization_id, new.organization_id) and (created_by = new.id or modified_by = new.id)'
        : `select '${scope}' as scope, ${id} as subject_id`,
    )
    .join(' union ');
}

const bump = (moves: [Scope, string][]) =>
  `insert into read_versions (scope, subject_id, value) select scope, subject_id, 1 from (${movedPairs(moves)}) as moved where subject_id is not null ` +
  'on conflict (scope, subject_id) do update set value = read_versions.value + 1';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('read_versions')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('subject_id', d.idType, (c) => c.notNull())
    .addColumn('value', d.idType, (c) => c.notNull())
    .addPrimaryKeyConstraint('read_versions_pk', ['scope', 'subject_id'])
    .execute();

  for (const { name: watchName, table, event, moves, columns } of WATCHED) {
    const name = `${watchName}_moves_read_versions`;
    const changed = columns?.map((column) => `old.${column} is ${d.name === 'postgres' ? 'distinct from' : 'not'} new.${column}`).join(' or ');
    const statement = bump(moves);
    if (d.name === 'postgres') {
      // One function per trigger: PostgreSQL has no trigger bodies, and each names other rows.
      await sql`create function ${sql.raw(name)}() returns trigger language plpgsql as $$
        begin ${sql.raw(statement)}; return null; end $$`.execute(db);
      await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.table(table)} for each row
        ${changed ? sql`when (${sql.raw(changed)})` : sql``} execute function ${sql.raw(name)}()`.execute(db);
    } else {
      await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.table(table)}
        ${changed ? sql`when ${sql.raw(changed)}` : sql``} begin ${sql.raw(statement)}; end`.execute(db);
    }
  }
}

// The read versions of migration 0080 (moved by triggers): what a conditional GET reads instead of
// the rows it would answer. Each read also gives the caller's permission epoch, in the same
// statement, so that a tag names what decides the caller's access as well as the data. Compiled once
// (precompiled.ts): they run before every conditional read of an agent or a listing.
import type { Kysely } from 'kysely';
import { precompiled } from './precompiled.js';
import type { DB, ReadVersionsTable } from './schema.js';

export type OrganizationScope = Extract<ReadVersionsTable['scope'], 'agents' | 'corpora'>;

/** A version and the caller's permission epoch (0 where no write has moved one yet). */
export interface VersionAndEpoch {
  value: number;
  epoch: number;
}

// The agent's own version (what If-Match compares) if the caller's organization has it and it is not
// deleted, its read version and the caller's epoch.
const agentVersions = precompiled(3, (db: Kysely<DB>, organizationId: number, agentId: number, userId: number) =>
  db
    .selectFrom('agents as a')
    .leftJoin('read_versions as v', (join) => join.on('v.scope', '=', 'agent').onRef('v.subject_id', '=', 'a.id'))
    .leftJoin('read_versions as u', (join) => join.on('u.scope', '=', 'user').on('u.subject_id', '=', userId))
    .select(['a.version', 'v.value as value', 'u.value as epoch'])
    .where('a.id', '=', agentId)
    .where('a.organization_id', '=', organizationId)
    .where('a.deleted_on', 'is', null),
);

// An organization's version of a listing and the caller's epoch: up to two rows.
const organizationVersions = precompiled(3, (db: Kysely<DB>, scope: OrganizationScope, organizationId: number, userId: number) =>
  db
    .selectFrom('read_versions')
    .select(['scope', 'value'])
    .where((eb) => eb.or([eb.and([eb('scope', '=', scope), eb('subject_id', '=', organizationId)]), eb.and([eb('scope', '=', 'user'), eb('subject_id', '=', userId)])])),
);

// A corpus's listing version (migration 0060: its documents, their tags, their users' e-mails) and the caller's epoch.
const corpusVersions = precompiled(2, (db: Kysely<DB>, corpusId: number, userId: number) =>
  db.selectNoFrom((eb) => [
    eb.selectFrom('corpus_listing_versions').select('value').where('corpus_id', '=', corpusId).as('value'),
    eb.selectFrom('read_versions').select('value').where('scope', '=', 'user').where('subject_id', '=', userId).as('epoch'),
  ]),
);

export class ReadVersionsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** An agent's version and read version with the caller's epoch; undefined when the caller's organization has no such agent (or it is deleted). */
  async ofAgent(organizationId: number, agentId: number, userId: number): Promise<(VersionAndEpoch & { version: number }) | undefined> {
    const row = (await agentVersions(this.db, organizationId, agentId, userId))[0];
    return row === undefined ? undefined : { version: Number(row.version), value: Number(row.value ?? 0), epoch: Number(row.epoch ?? 0) };
  }

  /** A corpus's listing version, with the caller's epoch. */
  async ofCorpus(corpusId: number, userId: number): Promise<VersionAndEpoch> {
    const row = (await corpusVersions(this.db, corpusId, userId))[0];
    return { value: Number(row?.value ?? 0), epoch: Number(row?.epoch ?? 0) };
  }

  /** An organization's version of a listing, with the caller's epoch. */
  async ofOrganization(scope: OrganizationScope, organizationId: number, userId: number): Promise<VersionAndEpoch> {
    const rows = await organizationVersions(this.db, scope, organizationId, userId);
    const valueOf = (wanted: ReadVersionsTable['scope']) => Number(rows.find((row) => row.scope === wanted)?.value ?? 0);
    return { value: valueOf(scope), epoch: valueOf('user') };
  }
}

import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

const SETTING_COLUMNS = ['f.flag', 'f.enabled', 'f.modified_on', 'u.email as modified_by_email'] as const;

/** The flags an organization has changed; a flag without a row has its catalogue default. */
export class FlagsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  private settings(organizationId: number) {
    return this.db
      .selectFrom('feature_flags as f')
      .innerJoin('users as u', 'u.id', 'f.modified_by')
      .where('f.organization_id', '=', organizationId);
  }

  list(organizationId: number) {
    return this.settings(organizationId).select(SETTING_COLUMNS).execute();
  }

  find(organizationId: number, flag: string) {
    return this.settings(organizationId).select(SETTING_COLUMNS).where('f.flag', '=', flag).executeTakeFirst();
  }

  async set(organizationId: number, flag: string, enabled: boolean, at: string, userId: number): Promise<void> {
    const value = enabled ? 1 : 0;
    await this.db
      .insertInto('feature_flags')
      .values({ organization_id: organizationId, flag, enabled: value, modified_on: at, modified_by: userId })
      .onConflict((oc) => oc.columns(['organization_id', 'flag']).doUpdateSet({ enabled: value, modified_on: at, modified_by: userId }))
      .execute();
  }
}

export type FlagSettingRow = NonNullable<Awaited<ReturnType<FlagsRepo['find']>>>;

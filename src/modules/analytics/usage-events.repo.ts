// Writing usage events. Reading them for figures is analytics.repo.ts's business.
import type { Insertable, Kysely } from 'kysely';
import type { DB, UsageEventsTable } from '../../db/schema.js';
import { answerEventOfResponse } from './usage-events.sql.js';

export type NewUsageEvent = Insertable<UsageEventsTable>;

export class UsageEventsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(event: NewUsageEvent): Promise<void> {
    await this.db.insertInto('usage_events').values(event).execute();
  }

  /** The project and team an agent of the organization belongs to now. */
  agentOwner(organizationId: number, agentId: number): Promise<{ project_id: number | null; team_id: number | null } | undefined> {
    return this.db
      .selectFrom('agents')
      .select(['project_id', 'team_id'])
      .where('organization_id', '=', organizationId)
      .where('id', '=', agentId)
      .executeTakeFirst();
  }

  /** The answer event of a response, from its row (usage-events.sql.ts). */
  async recordAnswer(organizationId: number, responseId: number): Promise<void> {
    await answerEventOfResponse(this.db, organizationId, responseId);
  }
}

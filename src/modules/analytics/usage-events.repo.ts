// Writing usage events. Reading them for figures is analytics.repo.ts's business.
import { sql, type Insertable, type Kysely } from 'kysely';
import type { DB, UsageEventsTable } from '../../db/schema.js';

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

  /**
   * The answer event of a response, made from the response row itself so that its status, tokens and
   * cost are the response's to the digit: written when the question is recorded, rewritten when the
   * answer ends. One event per response, however often this runs.
   */
  async recordAnswer(organizationId: number, responseId: number): Promise<void> {
    await sql`
      insert into usage_events (organization_id, kind, status, agent_id, project_id, team_id, user_id, response_id, model,
        llm_configuration_id, prompt_tokens, completion_tokens, tokens_estimated, cost_nano_usd, latency_ms, occurred_on)
      select r.organization_id, 'answer', r.status, r.agent_id, r.project_id, a.team_id, r.created_by, r.id, r.model,
        r.llm_configuration_id, r.prompt_tokens, r.completion_tokens, r.tokens_estimated,
        cast(round(r.cost * 1000000000) as bigint), r.latency_ms, r.created_on
      from agent_responses r left join agents a on a.id = r.agent_id
      where r.organization_id = ${organizationId} and r.id = ${responseId}
      on conflict (response_id) where kind = 'answer' do update set
        status = excluded.status,
        prompt_tokens = excluded.prompt_tokens,
        completion_tokens = excluded.completion_tokens,
        tokens_estimated = excluded.tokens_estimated,
        cost_nano_usd = excluded.cost_nano_usd,
        latency_ms = excluded.latency_ms
    `.execute(this.db);
  }
}

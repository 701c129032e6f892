// The answer event of a response, made from the response row itself so that its status, tokens and
// cost are the response's to the digit: written when the question is recorded, rewritten when the
// answer ends; one event per response, however often it runs. Compiled once (src/db/precompiled.ts):
// the usage events' repository runs it, and so do the asking path's transactions (runtime/ask.repo.ts),
// in the transaction that writes the response row, so that the event is there exactly when the row is.
import { sql, type Kysely } from 'kysely';
import { precompiled } from '../../db/precompiled.js';
import type { DB } from '../../db/schema.js';

export const answerEventOfResponse = precompiled(2, (db: Kysely<DB>, organizationId: number, responseId: number) => ({
  compile: () =>
    sql`
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
    `.compile(db),
}));

// What asking an agent reads and writes besides threads and responses themselves: the permissions
// that decide which connected corpora a caller's question may draw on, the history record whose
// configuration answers, and the response row completed once the answer has ended.
import type { Kysely, Updateable } from 'kysely';
import type { AgentResponsesTable, CorpusPermission, DB } from '../../db/schema.js';

/** What is known of a response once its answer has ended (or failed). */
export type FinishedResponse = Pick<
  Updateable<AgentResponsesTable>,
  'answer' | 'status' | 'error' | 'finish_reason' | 'citations' | 'tool_calls' | 'guardrail_actions' | 'prompt_tokens' | 'completion_tokens' | 'tokens_estimated' | 'cost' | 'latency_ms' | 'first_token_ms'
>;

export class AskRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** The permission the user holds on each of the corpora (of the organization) that has one granted. */
  async grantsOn(organizationId: number, userId: number, corpusIds: number[]): Promise<Map<number, CorpusPermission>> {
    if (corpusIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('corpus_permissions as p')
      .innerJoin('corpora as c', 'c.id', 'p.corpus_id')
      .select(['p.corpus_id', 'p.permission'])
      .where('c.organization_id', '=', organizationId)
      .where('p.user_id', '=', userId)
      .where('p.corpus_id', 'in', corpusIds)
      .execute();
    return new Map(rows.map((row) => [row.corpus_id, row.permission]));
  }

  /** The agent's newest history record: the configuration it has now. */
  async latestHistoryId(organizationId: number, agentId: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('agent_history')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('agent_id', '=', agentId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.id ?? null;
  }

  async finishResponse(organizationId: number, responseId: number, finished: FinishedResponse): Promise<void> {
    await this.db.updateTable('agent_responses').set(finished).where('organization_id', '=', organizationId).where('id', '=', responseId).execute();
  }
}

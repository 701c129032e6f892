// What asking an agent reads and writes besides threads and responses themselves: the permissions
// that decide which connected corpora a caller's question may draw on, the history record whose
// configuration answers, and the response row: written when the question is recorded, completed
// with the answer's outcome once it has ended (the columns of both: chat/response-columns.ts).
import type { Kysely } from 'kysely';
import type { CorpusPermission, DB } from '../../db/schema.js';
import { outcomeColumns, questionColumns } from '../chat/response-columns.js';
import type { AnswerOutcome, AskedQuestion } from './answer.js';

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

  /** The question's response in the thread, with the status and error it has until its answer ends; its id. */
  async recordQuestion(organizationId: number, threadId: number, question: AskedQuestion, until: { status: 'failed'; error: string }): Promise<number> {
    const row = await this.db
      .insertInto('agent_responses')
      .values({ ...questionColumns(organizationId, question), thread_id: threadId, ...until })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async finishResponse(organizationId: number, responseId: number, outcome: AnswerOutcome): Promise<void> {
    await this.db.updateTable('agent_responses').set(outcomeColumns(outcome)).where('organization_id', '=', organizationId).where('id', '=', responseId).execute();
  }
}

// Agent responses: each question asked of an agent and what came of it. Lists, citations and
// arrays are JSON text in the row and parsed here; every read names the organization and leaves
// out responses of deleted threads.
import type { Insertable, Kysely } from 'kysely';
import type { AgentResponseRow, AgentResponsesTable, DB } from '../../db/schema.js';

export type NewResponse = Insertable<AgentResponsesTable>;

/** A response row with its creator's e-mail and its tags. */
export type ResponseRecord = AgentResponseRow & { created_by_email: string; tags: string[] };

export class ResponsesRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** Responses of the organization whose thread is not deleted, with their creators' e-mails. */
  private visible(organizationId: number) {
    return this.db
      .selectFrom('agent_responses as r')
      .innerJoin('chat_threads as t', 't.id', 'r.thread_id')
      .innerJoin('users as creator', 'creator.id', 'r.created_by')
      .where('r.organization_id', '=', organizationId)
      .where('t.deleted_on', 'is', null)
      .selectAll('r')
      .select('creator.email as created_by_email');
  }

  async insert(response: NewResponse): Promise<number> {
    const row = await this.db.insertInto('agent_responses').values(response).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  async find(organizationId: number, responseId: number): Promise<ResponseRecord | undefined> {
    const row = await this.visible(organizationId).where('r.id', '=', responseId).executeTakeFirst();
    return row && (await this.withTags([row]))[0];
  }

  /** The thread's responses, oldest first. */
  async ofThread(organizationId: number, threadId: number, limit?: number): Promise<ResponseRecord[]> {
    let query = this.visible(organizationId).where('r.thread_id', '=', threadId).orderBy('r.id', 'asc');
    if (limit !== undefined) query = query.limit(limit);
    return this.withTags(await query.execute());
  }

  /** Attaches each response's tags, read for all of them at once. */
  async withTags<Row extends AgentResponseRow & { created_by_email: string }>(rows: Row[]): Promise<(Row & { tags: string[] })[]> {
    if (rows.length === 0) return [];
    const tags = await this.db
      .selectFrom('response_tags')
      .select(['response_id', 'tag'])
      .where(
        'response_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('tag')
      .execute();
    const byResponse = new Map<number, string[]>();
    for (const { response_id, tag } of tags) byResponse.set(response_id, [...(byResponse.get(response_id) ?? []), tag]);
    return rows.map((row) => ({ ...row, tags: byResponse.get(row.id) ?? [] }));
  }
}

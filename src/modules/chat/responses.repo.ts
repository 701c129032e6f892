// Agent responses: each question asked of an agent and what came of it, read as recorded answers
// (the lists kept as JSON text in the row are parsed here: response-columns.ts); every read names
// the organization and leaves out responses of deleted threads.
import type { Insertable, Kysely } from 'kysely';
import { selectSlice } from '../../db/list-slice.js';
import type { AgentResponseRow, AgentResponsesTable, DB } from '../../db/schema.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { RecordedAnswer } from '../runtime/answer.js';
import type { ThreadReader } from './readable-threads.js';
import { readableBy } from './readable-threads.sql.js';
import { recordedAnswerOf } from './response-columns.js';

export type NewResponse = Insertable<AgentResponsesTable>;


/** Which responses a list holds: those a reader may read, narrowed by thread, project or agent. */
export interface ResponseFilter {
  reader: ThreadReader;
  threadId?: number | undefined;
  projectId?: number | undefined;
  agentId?: number | undefined;
}

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

  async find(organizationId: number, responseId: number): Promise<RecordedAnswer | undefined> {
    const row = await this.visible(organizationId).where('r.id', '=', responseId).executeTakeFirst();
    return row && (await this.withTags([row]))[0];
  }

  /** The thread's responses, oldest first. */
  async ofThread(organizationId: number, threadId: number, limit?: number): Promise<RecordedAnswer[]> {
    let query = this.visible(organizationId).where('r.thread_id', '=', threadId).orderBy('r.id', 'asc');
    if (limit !== undefined) query = query.limit(limit);
    return this.withTags(await query.execute());
  }

  /** The rows as answers with their tags, read for all of them at once. */
  private async withTags(rows: (AgentResponseRow & { created_by_email: string })[]): Promise<RecordedAnswer[]> {
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
    return rows.map((row) => recordedAnswerOf({ ...row, tags: byResponse.get(row.id) ?? [] }));
  }

  /** A page of the responses a filter holds: oldest first for a thread's chat log, newest first otherwise. */
  async list(organizationId: number, filter: ResponseFilter, order: 'asc' | 'desc', window: ListWindow): Promise<ListSlice<RecordedAnswer>> {
    let query = this.visible(organizationId).where(readableBy(filter.reader));
    if (filter.threadId !== undefined) query = query.where('r.thread_id', '=', filter.threadId);
    if (filter.projectId !== undefined) query = query.where('r.project_id', '=', filter.projectId);
    if (filter.agentId !== undefined) query = query.where('r.agent_id', '=', filter.agentId);
    const { items, total } = await selectSlice(query.orderBy('r.id', order), window);
    return { items: await this.withTags(items), total };
  }

  /** Pins the response (at a time, by a user) or, with null, unpins it. */
  async setPinned(organizationId: number, responseId: number, pin: { at: string; by: number } | null): Promise<void> {
    await this.db
      .updateTable('agent_responses')
      .set({ pinned_on: pin?.at ?? null, pinned_by: pin?.by ?? null })
      .where('organization_id', '=', organizationId)
      .where('id', '=', responseId)
      .execute();
  }

  /** Replaces the response's tags. */
  async setTags(responseId: number, tags: string[]): Promise<void> {
    await this.db.deleteFrom('response_tags').where('response_id', '=', responseId).execute();
    if (tags.length) await this.db.insertInto('response_tags').values(tags.map((tag) => ({ response_id: responseId, tag }))).execute();
  }
}

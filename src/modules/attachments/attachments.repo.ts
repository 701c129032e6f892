// Files given in chat threads. Every query names the organization and the thread; a list never
// reads the text, which only the attachment tool asks for, one attachment at a time.
import type { Insertable, Kysely } from 'kysely';
import type { DB, ThreadAttachmentRow, ThreadAttachmentsTable } from '../../db/schema.js';

/** An attachment as lists show it: everything but its text, with its giver's e-mail. */
export type AttachmentRecord = Omit<ThreadAttachmentRow, 'text'> & { created_by_email: string };

export interface AttachmentText {
  id: number;
  filename: string;
  type: string;
  characters: number;
  text: string;
}

export class AttachmentsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  private ofThread(organizationId: number, threadId: number) {
    return this.db.selectFrom('thread_attachments as a').where('a.organization_id', '=', organizationId).where('a.thread_id', '=', threadId);
  }

  /** One statement for all the rows; their ids in the order given. */
  async insertMany(rows: Insertable<ThreadAttachmentsTable>[]): Promise<number[]> {
    const inserted = await this.db.insertInto('thread_attachments').values(rows).returning('id').execute();
    return inserted.map((row) => row.id).sort((a, b) => a - b);
  }

  /** The thread's attachments, oldest first. */
  listOfThread(organizationId: number, threadId: number): Promise<AttachmentRecord[]> {
    return this.ofThread(organizationId, threadId)
      .innerJoin('users as u', 'u.id', 'a.created_by')
      .select([
        'a.id',
        'a.organization_id',
        'a.thread_id',
        'a.user_id',
        'a.filename',
        'a.type',
        'a.size_bytes',
        'a.characters',
        'a.created_on',
        'a.created_by',
        'u.email as created_by_email',
      ])
      .orderBy('a.id')
      .execute();
  }

  async countOfThread(organizationId: number, threadId: number): Promise<number> {
    const row = await this.ofThread(organizationId, threadId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async exists(organizationId: number, threadId: number, attachmentId: number): Promise<boolean> {
    return (await this.ofThread(organizationId, threadId).select('a.id').where('a.id', '=', attachmentId).executeTakeFirst()) !== undefined;
  }

  textOf(organizationId: number, threadId: number, attachmentId: number): Promise<AttachmentText | undefined> {
    return this.ofThread(organizationId, threadId)
      .select(['a.id', 'a.filename', 'a.type', 'a.characters', 'a.text'])
      .where('a.id', '=', attachmentId)
      .executeTakeFirst();
  }

  /** Whether a row was deleted. */
  async delete(organizationId: number, threadId: number, attachmentId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('thread_attachments')
      .where('organization_id', '=', organizationId)
      .where('thread_id', '=', threadId)
      .where('id', '=', attachmentId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

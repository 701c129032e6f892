// Files given in a chat thread, for the agent of that thread to read (src/tools/attachment/). Their
// text is extracted when they are given, all of a request before any is kept: a request with one
// file that cannot be read keeps nothing. Who may give, list and remove: attachment.policy.ts.
import { now } from '../../clock.js';
import { NotFound, PayloadTooLarge } from '../../errors.js';
import type { UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import { authorize } from '../auth/roles.js';
import { requireVisibleThread } from '../chat/thread-access.js';
import { attachmentPolicy } from './attachment.policy.js';
import { presentAttachment } from './attachment.presenter.js';
import type { ReadableFile, ReadFileText } from './attachment-text.js';
import type { AttachmentRecord } from './attachments.repo.js';
import type { AttachmentView } from './attachments.schemas.js';

/** Most files one thread holds: what the agent is offered stays a list it can read. */
export const MAX_ATTACHMENTS_PER_THREAD = 50;

export class AttachmentsService {
  constructor(
    private readonly store: UnitOfWork,
    private readonly readText: ReadFileText,
  ) {}

  /**
   * Gives files to a thread the caller owns. `read` is called only once the caller is known to be
   * allowed (an upload's body is not read for anyone else).
   */
  async upload(actor: Actor, threadId: number, read: () => Promise<ReadableFile[]>): Promise<AttachmentView[]> {
    const { thread } = await requireVisibleThread(this.store.repos, actor, threadId);
    authorize(attachmentPolicy.mayGive(actor, thread), 'Only the thread’s owner may give it files');
    const files = await read();
    const held = await this.store.repos.attachments.countOfThread(actor.organizationId, threadId);
    if (held + files.length > MAX_ATTACHMENTS_PER_THREAD) {
      throw new PayloadTooLarge(`A thread holds at most ${MAX_ATTACHMENTS_PER_THREAD} attachments; this one holds ${held}`);
    }
    // One file at a time: the extraction threads are shared with document ingestion.
    const texts = [];
    for (const file of files) texts.push({ file, ...(await this.readText(file)) });
    const at = now();
    const ids = await this.store.repos.attachments.insertMany(
      texts.map(({ file, type, text }) => ({
        organization_id: actor.organizationId,
        thread_id: threadId,
        user_id: actor.userId,
        filename: file.filename,
        type,
        size_bytes: file.bytes.length,
        characters: text.length,
        text,
        created_on: at,
        created_by: actor.userId,
      })),
    );
    const made = new Set(ids);
    return (await this.listForThread(actor.organizationId, threadId)).filter((attachment) => made.has(attachment.id)).map(presentAttachment);
  }

  /** Files given with an ask, in the thread the ask is in: the same rules and limits as an upload. */
  attach(actor: Actor, threadId: number, files: ReadableFile[]): Promise<AttachmentView[]> {
    return this.upload(actor, threadId, async () => files);
  }

  async list(actor: Actor, threadId: number): Promise<AttachmentView[]> {
    await requireVisibleThread(this.store.repos, actor, threadId);
    return (await this.listForThread(actor.organizationId, threadId)).map(presentAttachment);
  }

  async delete(actor: Actor, threadId: number, attachmentId: number): Promise<void> {
    const { thread } = await requireVisibleThread(this.store.repos, actor, threadId);
    if (!(await this.store.repos.attachments.exists(actor.organizationId, threadId, attachmentId))) throw new NotFound('Attachment', attachmentId);
    authorize(attachmentPolicy.mayRemove(actor, thread), 'Only the thread’s owner, owners and admins may remove its attachments');
    if (!(await this.store.repos.attachments.delete(actor.organizationId, threadId, attachmentId))) throw new NotFound('Attachment', attachmentId);
  }

  /** The thread's attachments without their text, oldest first; no permission check (the runtime's own thread). */
  listForThread(organizationId: number, threadId: number): Promise<AttachmentRecord[]> {
    return this.store.repos.attachments.listOfThread(organizationId, threadId);
  }
}

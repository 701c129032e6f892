// A message leaving the corpus: its documents (its text and its attachments) marked deleted with their
// chunks dropped (they leave retrieval at once) and its items removed, in one transaction; the stored
// files go once that committed (a stray file costs only space).
import { now } from '../../clock.js';
import type { UnitOfWork } from '../../repositories.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { MailboxRow } from './mailboxes.repo.js';

export async function removeMailDocuments(store: UnitOfWork, blobs: BlobStore, mailbox: MailboxRow, messageId: string): Promise<void> {
  const at = now();
  const dropped = await store.transaction(async (repos) => {
    const files: { documentId: number; key: string }[] = [];
    for (const item of await repos.mailboxes.itemsOf(mailbox.id, messageId)) {
      if (item.document_id === null) continue;
      const document = await repos.documents.findForProcessing(mailbox.organization_id, item.document_id);
      if (!document || document.deleted_on !== null) continue;
      await repos.documents.markDeleted(document, { at, by: mailbox.created_by });
      await repos.mailboxes.bump(mailbox.id, 'sync_removed');
      if (document.file_key !== null) files.push({ documentId: item.document_id, key: document.file_key });
    }
    await repos.mailboxes.deleteItems(mailbox.id, messageId);
    return files;
  });
  for (const file of dropped) {
    await blobs.delete(file.key).catch(() => undefined);
    await store.repos.documents.updateInOrganization(mailbox.organization_id, file.documentId, { file_key: null });
  }
}

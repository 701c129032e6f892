import type { AttachmentRecord } from './attachments.repo.js';
import type { AttachmentView } from './attachments.schemas.js';

export function presentAttachment(attachment: AttachmentRecord): AttachmentView {
  return {
    id: attachment.id,
    thread_id: attachment.thread_id,
    filename: attachment.filename,
    type: attachment.type,
    size_bytes: attachment.size_bytes,
    characters: attachment.characters,
    created_on: attachment.created_on,
    created_by: attachment.created_by_email,
  };
}

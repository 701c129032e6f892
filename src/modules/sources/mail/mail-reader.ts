// What a mail sync reads, whatever the provider: pages of changes (a message present in scope, or
// gone from it), each page followed by the position to go on from, and a message's attachments on
// demand. graph-mail.ts (Microsoft 365) and gmail.ts (Google) read their APIs into these terms;
// the sync (../adapters/mailbox.ts) applies them to the corpus.

export interface MailMessage {
  id: string;
  subject: string;
  from: string;
  to: string[];
  cc: string[];
  /** ISO 8601, as the provider gave it. */
  date: string;
  body: string;
  bodyType: 'text' | 'html';
  webLink: string | undefined;
  hasAttachments: boolean;
}

export interface MailAttachment {
  id: string;
  name: string;
  /** As the provider states it, before downloading. */
  size: number | undefined;
  load(): Promise<Buffer>;
}

export type MailChange =
  /** In scope; `load` fetches the message (called only for a message not brought in yet). */
  | { kind: 'present'; messageId: string; folder: string; load(): Promise<MailMessage> }
  | { kind: 'removed'; messageId: string; folder: string };

/** The provider's incremental position, kept as JSON on the mailbox. */
export type MailCursor = Record<string, unknown>;

export interface MailSyncHooks {
  /** Applies one page of changes. */
  apply(changes: MailChange[]): Promise<void>;
  /** Records where to go on from (after each page, so a stopped sync resumes there). */
  save(cursor: MailCursor): Promise<void>;
  /** A full listing of `folder` ended: what it did not see has left the mailbox. */
  fullRoundEnded(folder: string): Promise<void>;
}

export interface MailReader {
  /** Reads every change since `cursor`; answers the cursor of the next sync. */
  run(cursor: MailCursor, hooks: MailSyncHooks): Promise<MailCursor>;
  attachments(message: MailMessage): Promise<MailAttachment[]>;
}

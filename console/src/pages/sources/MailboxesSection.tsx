// The mailboxes linked to corpora, each with its last sync; linking one through its provider's consent.
import type { UseQueryResult } from '@tanstack/react-query';
import { LinkMailboxDialog } from './LinkMailboxDialog';
import { SourceCard } from './SourceCard';
import { SourcesBlock } from './SourcesBlock';
import { removeMailbox, syncMailbox, type Mailbox } from './sources-api';
import { useWritableCorpora } from './useWritableCorpora';

const PROVIDER_NAMES: Record<Mailbox['provider'], string> = { microsoft: 'Microsoft 365', google: 'Gmail' };

function detailsOf(mailbox: Mailbox) {
  const folders = `${PROVIDER_NAMES[mailbox.provider]}, ${mailbox.provider === 'google' ? 'labels' : 'folders'} ${mailbox.folders.join(', ')}.`;
  if (mailbox.authorization_status === 'active') return folders;
  return (
    <>
      {folders} <strong className="badge badge-danger">Needs authorizing again</strong> (the provider refused its grant: link it again).
    </>
  );
}

export function MailboxesSection({ mailboxes }: { mailboxes: UseQueryResult<{ items: Mailbox[] }> }) {
  const corpora = useWritableCorpora();
  return (
    <SourcesBlock
      id="mailboxes"
      title="Mailboxes"
      intro="Messages and their attachments, brought into a corpus after the mailbox’s owner consents at the provider."
      action={<LinkMailboxDialog blocked={corpora.blocked} />}
      notice={
        corpora.blocked !== null && (
          <p id="mailbox-blocked" className="note note-info">
            {corpora.blocked}
          </p>
        )
      }
      list={mailboxes}
      empty="No mailbox is linked yet."
    >
      {(mailbox) => (
        <SourceCard
          key={mailbox.id}
          title={mailbox.address}
          noun="mailbox"
          details={detailsOf(mailbox)}
          corpus={{ id: mailbox.corpus_id, name: corpora.nameOf(mailbox.corpus_id) }}
          sync={mailbox.last_sync}
          nextSyncOn={mailbox.next_sync_on}
          syncBlocked={null}
          requestSync={() => syncMailbox(mailbox.id)}
          remove={() => removeMailbox(mailbox.id)}
          removeConsequence="Its refresh token and pending syncs go with it; the messages it brought in stay in the corpus."
        />
      )}
    </SourcesBlock>
  );
}

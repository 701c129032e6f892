// Linking a mailbox: the provider, the corpus its messages go to, and (for owners and admins) the
// mailbox expected, by default the person's own. The browser then goes to the provider's consent
// page; the provider sends it back to the server, which brings it back here with the outcome
// (LinkOutcome). Only the expected mailbox may complete it: another account signing in is refused.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { atLeast } from '../../session/permissions';
import { useUser } from '../../session/session';
import { Button, TextField } from '../../ui/Fields';
import { FormDialog } from '../../ui/FormDialog';
import { SelectField, type SelectOption } from '../../ui/SelectField';
import { startMailboxAuthorization, type MailProvider } from './sources-api';
import { WritableCorpusField } from './WritableCorpusField';

const PROVIDERS: SelectOption<MailProvider>[] = [
  { id: 'microsoft', label: 'Microsoft 365', detail: 'Outlook mail through Microsoft Graph' },
  { id: 'google', label: 'Gmail', detail: 'Google Workspace or Gmail' },
];

const looksLikeAddress = (text: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text.trim());

export function LinkMailboxDialog({ blocked }: { blocked: string | null }) {
  const user = useUser();
  const mayNameAnother = atLeast(user.role, 'admin');
  const [provider, setProvider] = useState<MailProvider>('microsoft');
  const [corpusId, setCorpusId] = useState<number | null>(null);
  const [mailbox, setMailbox] = useState('');
  const start = useMutation({
    mutationFn: () => startMailboxAuthorization({ provider, corpus_id: corpusId!, ...(mailbox.trim() === '' ? {} : { mailbox: mailbox.trim() }) }),
    // Off to the provider: the page is left, so the button keeps saying so until it is.
    onSuccess: (authorization) => window.location.assign(authorization.authorization_url),
  });
  const mailboxOk = mailbox.trim() === '' || looksLikeAddress(mailbox);
  if (blocked !== null) {
    return (
      <Button isDisabled aria-describedby="mailbox-blocked">
        Link a mailbox
      </Button>
    );
  }
  return (
    <FormDialog
      title="Link a mailbox"
      trigger={<Button>Link a mailbox</Button>}
      onOpenChange={(open) => !open && start.reset()}
      submitLabel="Continue to the provider"
      pendingLabel="Opening the provider…"
      isPending={start.isPending || start.isSuccess}
      canSubmit={corpusId !== null && mailboxOk}
      error={start.error}
      errorTitle="The mailbox could not be linked."
      onSubmit={() => start.mutate()}
    >
      <SelectField label="Provider" options={PROVIDERS} value={provider} onChange={setProvider} />
      <WritableCorpusField value={corpusId} onChange={setCorpusId} purpose="Where its messages and attachments go." />
      {mayNameAnother ? (
        <TextField
          label="Mailbox"
          type="email"
          value={mailbox}
          onChange={setMailbox}
          maxLength={254}
          placeholder={user.email}
          validate={(text) => (text.trim() === '' || looksLikeAddress(text) ? null : 'An e-mail address, or empty for your own.')}
          validationBehavior="aria"
          description={`Empty: your own (${user.email}). Whoever signs in at the provider must be this mailbox.`}
        />
      ) : (
        <p className="muted text-small">Your own mailbox ({user.email}) is linked: sign in with it at the provider.</p>
      )}
      <p className="muted text-small">You will sign in at the provider and consent, then come back to this page.</p>
    </FormDialog>
  );
}

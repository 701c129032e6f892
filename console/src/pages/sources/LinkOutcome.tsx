// What became of a mailbox's consent, told when the provider (through the server's callback) brings
// the browser back here: ?linked_mailbox=<id> or ?link_error=<the server's reason>. The reason is
// shown as text after a sentence of the console's own; "Dismiss" takes it out of the address.
import { useSearchParams } from 'react-router';
import { Button } from '../../ui/Fields';
import type { Mailbox } from './sources-api';

export function LinkOutcome({ mailboxes }: { mailboxes: Mailbox[] | undefined }) {
  const [params, setParams] = useSearchParams();
  const linked = params.get('linked_mailbox');
  const error = params.get('link_error');
  if (linked === null && error === null) return null;
  const dismiss = () =>
    setParams(
      (before) => {
        const next = new URLSearchParams(before);
        next.delete('linked_mailbox');
        next.delete('link_error');
        return next;
      },
      { replace: true },
    );
  const address = mailboxes?.find((mailbox) => String(mailbox.id) === linked)?.address;
  return (
    <div className={`note ${error !== null ? 'note-error' : 'note-success'} link-outcome`} role={error !== null ? 'alert' : 'status'}>
      {error !== null ? (
        <p>
          <strong>The mailbox was not linked. </strong>
          {error}
        </p>
      ) : (
        <p>
          <strong>Mailbox linked{address !== undefined ? `: ${address}` : ''}.</strong> Its first sync is under way.
        </p>
      )}
      <Button variant="quiet" className="button-compact" onPress={dismiss}>
        Dismiss
      </Button>
    </div>
  );
}

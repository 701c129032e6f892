// "Restore" for one record: a confirmation that says what happens (the configuration comes back,
// a new record is added, nothing is lost, the status stays), with an optional note for the new record.
import { useState } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Button, TextField } from '../../ui/Fields';
import { formatWhen, type HistoryRecord } from './history-api';

interface RestoreButtonProps {
  record: Pick<HistoryRecord, 'history_id' | 'version' | 'checkpoint_name' | 'created_on'>;
  /** Undefined: the user may restore. Otherwise the id of the text saying why not. */
  disabledReasonId?: string | undefined;
  isPending: boolean;
  onRestore: (note: string) => void | Promise<void>;
  /** The button's visible text ("Restore", "Restore #12"); its accessible name always names the record. */
  label?: string;
}

export function RestoreButton({ record, disabledReasonId, isPending, onRestore, label = 'Restore' }: RestoreButtonProps) {
  const [note, setNote] = useState('');
  const name = `Restore #${record.history_id} ${record.checkpoint_name}`;
  if (disabledReasonId !== undefined) {
    return (
      <Button isDisabled aria-label={name} aria-describedby={disabledReasonId}>
        {label}
      </Button>
    );
  }
  return (
    <ConfirmDialog
      trigger={
        // One restore at a time; the same button stays, so focus comes back to it when the dialog closes.
        <Button aria-label={name} isDisabled={isPending}>
          {label}
        </Button>
      }
      title={`Restore #${record.history_id}?`}
      confirmLabel="Restore"
      onConfirm={async () => {
        const text = note;
        setNote('');
        await onRestore(text);
      }}
    >
      <p>
        The agent’s configuration (name, description, instructions, model, temperature, corpora, tools, guardrails,
        conversation starters…) becomes that of <strong>#{record.history_id} “{record.checkpoint_name}”</strong>, version{' '}
        {record.version}, from {formatWhen(record.created_on)}.
      </p>
      <p>
        Nothing is deleted: the restore is added to the history as a new record, so it can be undone by restoring
        another record. The agent’s status (active or not) stays as it is.
      </p>
      <TextField label="Note for the new record (optional)" value={note} onChange={setNote} maxLength={2000} multiline rows={2} />
    </ConfirmDialog>
  );
}

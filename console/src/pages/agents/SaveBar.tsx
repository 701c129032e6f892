// The foot of the agent's form: the save (or create) button and what became of the last attempt —
// saved, refused with reasons by the fields, or refused because someone else changed the agent.
import type { ReactNode } from 'react';
import { ApiError } from '../../api/errors';
import { Button } from '../../ui/Fields';
import { ErrorNote, SuccessNote } from '../../ui/Feedback';

interface SaveBarProps {
  label: string;
  pendingLabel: string;
  isPending: boolean;
  hasChanges: boolean;
  error: unknown;
  /** Whether every complaint of the error is shown by its field. */
  errorsPlaced: boolean;
  isSaved: boolean;
  /** Loads the agent as it is now, dropping the edits; offered after a conflict. */
  onReload?: () => void;
  /** Beside the button: a way out (Cancel). */
  children?: ReactNode;
}

export const isConflict = (error: unknown) => error instanceof ApiError && error.status === 412;

export function SaveBar({ label, pendingLabel, isPending, hasChanges, error, errorsPlaced, isSaved, onReload, children }: SaveBarProps) {
  return (
    // In view while there is something to save or to read; at the form's foot otherwise.
    <div className={['agent-save-bar', hasChanges || error !== null ? 'agent-save-bar-pinned' : undefined].filter(Boolean).join(' ')}>
      {isConflict(error) ? (
        <ConflictNote onReload={onReload} />
      ) : errorsPlaced ? (
        <p className="note note-error" role="alert">
          Not saved: some fields need a change, each said by its field.
        </p>
      ) : (
        <ErrorNote error={error} title="Not saved." />
      )}
      {isSaved && !hasChanges && <SuccessNote>Saved.</SuccessNote>}
      <div className="actions">
        <Button type="submit" variant="primary" isDisabled={isPending || !hasChanges}>
          {isPending ? pendingLabel : label}
        </Button>
        {!hasChanges && !isPending && <span className="muted">No unsaved changes</span>}
        {children}
      </div>
    </div>
  );
}

/** Someone else changed the agent since it was opened: what was typed here was not saved over it. */
function ConflictNote({ onReload }: { onReload?: () => void }) {
  return (
    <div className="note note-error agent-conflict" role="alert">
      <p>
        <strong>Not saved: someone else changed this agent after you opened it.</strong> Reload it to see their changes, then make yours again; reloading replaces what you typed here.
      </p>
      {onReload !== undefined && <Button onPress={onReload}>Reload the agent</Button>}
    </div>
  );
}

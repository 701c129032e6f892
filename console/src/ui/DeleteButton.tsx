// Deleting (or taking away) something, after a question that names it and says what goes with it;
// while the server works the button waits, and a refusal is said beside it.
import type { ReactNode } from 'react';
import { ConfirmDialog } from './ConfirmDialog';
import { ErrorNote } from './Feedback';
import { Button } from './Fields';

interface DeleteButtonProps {
  /** The button's text: "Delete agent"; in a row of a table, "Delete". */
  label: string;
  /** The name read out where the text alone does not say what goes ("Delete handbook.pdf"). */
  accessibleName?: string;
  /** The question: "Delete Support bot?". */
  title: string;
  /** The button that confirms: "Delete agent". */
  confirmLabel: string;
  /** A small quiet button, for a row of a table; else the red one. */
  compact?: boolean;
  isPending: boolean;
  error: unknown;
  errorTitle?: string;
  onDelete: () => void;
  /** What happens, said in the question. */
  children: ReactNode;
  className?: string;
}

export function DeleteButton({ label, accessibleName, title, confirmLabel, compact = false, isPending, error, errorTitle, onDelete, children, className }: DeleteButtonProps) {
  return (
    <div className={['delete-action', className].filter(Boolean).join(' ')}>
      <ConfirmDialog
        trigger={
          <Button variant={compact ? 'quiet' : 'danger'} className={compact ? 'button-compact' : undefined} aria-label={accessibleName} isDisabled={isPending}>
            {label}
          </Button>
        }
        title={title}
        confirmLabel={confirmLabel}
        danger
        onConfirm={onDelete}
      >
        {children}
      </ConfirmDialog>
      <ErrorNote error={error} title={errorTitle} />
    </div>
  );
}

// Deleting one row of a table (a query, a metric): the question, the request, and what the area's
// cache must read again once it is gone.
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { DeleteButton } from '../../ui/DeleteButton';

interface DeleteRowButtonProps {
  /** Read out with the button: "Delete query: How long is leave?". */
  accessibleName: string;
  title: string;
  confirmLabel: string;
  errorTitle: string;
  remove: () => Promise<unknown>;
  /** Read again once deleted. */
  stale: QueryKey;
  children: ReactNode;
}

export function DeleteRowButton({ accessibleName, title, confirmLabel, errorTitle, remove, stale, children }: DeleteRowButtonProps) {
  const queryClient = useQueryClient();
  const deletion = useMutation({ mutationFn: remove, onSuccess: () => queryClient.invalidateQueries({ queryKey: stale }) });
  return (
    <DeleteButton
      label="Delete"
      accessibleName={accessibleName}
      compact
      title={title}
      confirmLabel={confirmLabel}
      isPending={deletion.isPending}
      error={deletion.error}
      errorTitle={errorTitle}
      onDelete={() => deletion.mutate()}
    >
      {children}
    </DeleteButton>
  );
}

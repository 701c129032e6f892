// The head of a team's or a project's page: the way back to the list, its name and description, and
// for those who may, renaming it and deleting it (what goes with it said in the question).
import type { UseMutationResult } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DeleteButton } from '../../ui/DeleteButton';
import { PageHeader } from '../../ui/PageHeader';
import { NameDialog } from './NameDialog';

interface GroupHeaderProps {
  /** "team", "project". */
  noun: string;
  listPath: string;
  group: { name: string; description: string };
  rename: UseMutationResult<unknown, Error, { name: string; description: string }> | null;
  remove: UseMutationResult<unknown, Error, void> | null;
  /** What deleting it does. */
  deleteConsequence: string;
}

export function GroupHeader({ noun, listPath, group, rename, remove, deleteConsequence }: GroupHeaderProps) {
  return (
    <>
      <p className="people-breadcrumb">
        <Link to={listPath}>All {noun}s</Link>
      </p>
      <PageHeader title={group.name} description={group.description || undefined}>
        {rename !== null && (
          <NameDialog
            title={`Rename the ${noun}`}
            triggerLabel="Rename"
            submitLabel="Save"
            pendingLabel="Saving…"
            noun={noun}
            initial={group}
            save={(fields) => rename.mutateAsync(fields)}
          />
        )}
        {remove !== null && (
          <DeleteButton
            label={`Delete ${noun}`}
            title={`Delete ${group.name}?`}
            confirmLabel={`Delete ${noun}`}
            isPending={remove.isPending}
            error={remove.error}
            errorTitle="Not deleted:"
            onDelete={() => remove.mutate()}
          >
            <p>{deleteConsequence}</p>
          </DeleteButton>
        )}
      </PageHeader>
    </>
  );
}

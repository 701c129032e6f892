// What a team's and a project's members pages share: adding someone found by name or e-mail (with
// more fields where a role goes with it), and removing a member, or leaving, after a question.
import type { UseMutationResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Form } from 'react-aria-components';
import { DeleteButton } from '../../ui/DeleteButton';
import { ErrorNote } from '../../ui/Feedback';
import { Button } from '../../ui/Fields';
import { UserPicker } from '../corpora/permissions/UserPicker';

interface AddMemberFormProps {
  /** The form's name: "Add a member to the team". */
  label: string;
  submitLabel: string;
  /** Adds the chosen user. */
  add: UseMutationResult<unknown, Error, number>;
  /** Fields beside the user (a role). */
  children?: ReactNode;
}

export function AddMemberForm({ label, submitLabel, add, children }: AddMemberFormProps) {
  const [userId, setUserId] = useState<number | null>(null);
  // A new picker after each addition, empty for the next person.
  const [pickerKey, setPickerKey] = useState(0);
  return (
    <>
      <Form
        className="add-form"
        aria-label={label}
        onSubmit={(event) => {
          event.preventDefault();
          if (userId !== null)
            add.mutate(userId, {
              onSuccess: () => {
                setUserId(null);
                setPickerKey((key) => key + 1);
              },
            });
        }}
      >
        <UserPicker key={pickerKey} selectedId={userId} onSelect={setUserId} />
        {children}
        <Button type="submit" variant="primary" isDisabled={userId === null || add.isPending}>
          {add.isPending ? 'Adding…' : submitLabel}
        </Button>
      </Form>
      <ErrorNote error={add.error} title="Not added:" />
    </>
  );
}

interface RemoveMemberButtonProps {
  email: string;
  isMe: boolean;
  /** "the team", "the project". */
  from: string;
  remove: UseMutationResult<unknown, Error, void>;
  /** What leaving means, and what being removed means. */
  consequences: { leave: string; remove: string };
}

export function RemoveMemberButton({ email, isMe, from, remove, consequences }: RemoveMemberButtonProps) {
  return (
    <div className="row-actions">
      <DeleteButton
        label={isMe ? 'Leave' : 'Remove'}
        accessibleName={isMe ? `Leave ${from}` : `Remove ${email} from ${from}`}
        title={isMe ? `Leave ${from}?` : `Remove ${email} from ${from}?`}
        confirmLabel={isMe ? 'Leave' : 'Remove'}
        compact
        isPending={remove.isPending}
        error={remove.error}
        errorTitle="Not removed:"
        onDelete={() => remove.mutate()}
      >
        <p>{isMe ? consequences.leave : consequences.remove}</p>
      </DeleteButton>
    </div>
  );
}

// The signed-in user's own first and last name (PUT /api/v2/users/{id}); the header shows the new
// name as soon as it is saved.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { type CurrentUser, ME_QUERY_KEY } from '../../session/session';
import { Button, TextField } from '../../ui/Fields';
import { SaveOutcome } from './SaveOutcome';
import { isSessionEnded, refusalOf, useStandingRefusals } from './serverErrors';
import { useSaveAcrossSignIn } from './useSaveAcrossSignIn';

interface Names {
  first_name: string;
  last_name: string;
}

const LABELS = { first_name: 'First name', last_name: 'Last name' };

export function NameForm({ user }: { user: CurrentUser }) {
  const queryClient = useQueryClient();
  // Typed text is the form's own: a refetch of the user (after signing in again) does not reset it.
  const [firstName, setFirstName] = useState(user.first_name);
  const [lastName, setLastName] = useState(user.last_name);
  const save = useMutation({
    mutationFn: (names: Names) => unwrap(api.PUT('/api/v2/users/{user_id}', { params: { path: { user_id: user.id } }, body: names })),
    onSuccess: (answer) => queryClient.setQueryData<CurrentUser | null>(ME_QUERY_KEY, (me) => (me ? { ...me, ...answer.data } : me)),
  });
  const waitingForSignIn = useSaveAcrossSignIn(save);
  const refusal = save.error === null || isSessionEnded(save.error) ? undefined : refusalOf(save.error, LABELS);
  const unchanged = firstName.trim() === user.first_name && lastName.trim() === user.last_name;
  const standing = useStandingRefusals(refusal, save.variables, { first_name: firstName.trim(), last_name: lastName.trim() });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    save.mutate({ first_name: firstName.trim(), last_name: lastName.trim() });
  }

  return (
    <Form onSubmit={submit} className="form" validationErrors={standing} aria-labelledby="profile-name-title">
      <h2 id="profile-name-title">Name</h2>
      <div className="form-row">
        <TextField label={LABELS.first_name} name="first_name" autoComplete="given-name" maxLength={200} value={firstName} onChange={setFirstName} />
        <TextField label={LABELS.last_name} name="last_name" autoComplete="family-name" maxLength={200} value={lastName} onChange={setLastName} />
      </div>
      <SaveOutcome saved={save.isSuccess && unchanged} savedText="Name saved." refusal={refusal} waitingForSignIn={waitingForSignIn} />
      <div className="actions">
        <Button type="submit" variant="primary" isPending={save.isPending}>
          Save name
        </Button>
      </div>
    </Form>
  );
}

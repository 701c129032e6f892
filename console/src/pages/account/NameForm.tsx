// The signed-in user's own first and last name (PUT /api/v2/users/{id}); the header shows the new
// name as soon as it is saved.
import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import type { CurrentUser } from '../../session/session';
import { Button, TextField } from '../../ui/Fields';
import { SaveOutcome } from './SaveOutcome';
import { useStandingRefusals } from './serverErrors';
import { useProfileSave } from './useProfileSave';

const LABELS = { first_name: 'First name', last_name: 'Last name' };

export function NameForm({ user }: { user: CurrentUser }) {
  // Typed text is the form's own: a refetch of the user (after signing in again) does not reset it.
  const [firstName, setFirstName] = useState(user.first_name);
  const [lastName, setLastName] = useState(user.last_name);
  const { save, refusal, waitingForSignIn } = useProfileSave(user, { labels: LABELS });
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

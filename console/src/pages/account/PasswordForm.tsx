// The signed-in user's own password: the current one, then the new one twice (PUT
// /api/v2/users/{id} with current_password). The server then ends the user's other sessions (other
// browsers, devices); the one making the change stays signed in, which the page says.
import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import type { CurrentUser } from '../../session/session';
import { Button, TextField } from '../../ui/Fields';
import { NewPasswordFields } from './NewPasswordFields';
import { SaveOutcome } from './SaveOutcome';
import { useStandingRefusals } from './serverErrors';
import { useProfileSave } from './useProfileSave';

const LABELS = { current_password: 'Current password', password: 'The new password' };

export function PasswordForm({ user }: { user: CurrentUser }) {
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  // A new form after a change: empty fields, and none marked as missing.
  const [generation, setGeneration] = useState(0);
  const { save: change, refusal, waitingForSignIn } = useProfileSave(user, {
    labels: LABELS,
    outcome: 'Password not changed:',
    onSaved: () => {
      setCurrent('');
      setPassword('');
      setRepeated('');
      setGeneration((value) => value + 1);
    },
  });
  const standing = useStandingRefusals(refusal, change.variables, { current_password: current, password });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    change.mutate({ current_password: current, password });
  }

  return (
    <Form key={generation} onSubmit={submit} className="form" validationErrors={standing} aria-labelledby="profile-password-title">
      <h2 id="profile-password-title">Password</h2>
      {/* Tells password managers whose password this is. */}
      <input type="text" name="username" autoComplete="username" value={user.email} readOnly hidden />
      <TextField label="Current password" name="current_password" type="password" autoComplete="current-password" isRequired value={current} onChange={setCurrent} />
      <NewPasswordFields password={password} onPasswordChange={setPassword} repeated={repeated} onRepeatedChange={setRepeated} />
      <SaveOutcome
        saved={change.isSuccess && password === ''}
        savedText="Password changed. Your other sessions (other browsers and devices) are signed out; this one stays signed in."
        refusal={refusal}
        waitingForSignIn={waitingForSignIn}
      />
      <div className="actions">
        <Button type="submit" variant="primary" isPending={change.isPending}>
          Change password
        </Button>
      </div>
    </Form>
  );
}

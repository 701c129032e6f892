// E-mail and password, checked by the server; its answer (wrong password, too many attempts) is
// shown as it is said.
import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { useSession } from '../../session/session';
import { Button, TextField } from '../../ui/Fields';
import { ErrorNote } from '../../ui/Feedback';

export function SignInForm({ defaultEmail = '', submitLabel = 'Sign in', onSignedIn }: { defaultEmail?: string; submitLabel?: string; onSignedIn?: () => void }) {
  const { signIn } = useSession();
  const [email, setEmail] = useState(defaultEmail);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      await signIn(email.trim(), password);
      setPassword('');
      onSignedIn?.();
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  }

  return (
    <Form onSubmit={submit} className="form">
      <TextField label="E-mail" name="email" type="email" autoComplete="username" isRequired value={email} onChange={setEmail} />
      <TextField label="Password" name="password" type="password" autoComplete="current-password" isRequired value={password} onChange={setPassword} />
      <ErrorNote error={error} />
      <Button type="submit" variant="primary" isPending={pending}>
        {submitLabel}
      </Button>
    </Form>
  );
}

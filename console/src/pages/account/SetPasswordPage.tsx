// The page an invitation's link opens (/set-password?token=…; the token comes from POST /api/v2/users
// or POST /api/v2/users/{id}/set-password-token). Public: the invited person has no session yet. The
// password is chosen once with the token, then the person signs in with it right here.
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import { Button } from '../../ui/Fields';
import { SuccessNote } from '../../ui/Feedback';
import { PageHeader } from '../../ui/PageHeader';
import { NewPasswordFields } from './NewPasswordFields';
import { refusalOf, useStandingRefusals } from './serverErrors';
import { SignInForm } from './SignInForm';
import './account.css';

type User = Schemas['User'];

export default function SetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [user, setUser] = useState<User | null>(null);
  return (
    <main className="centered-page" id="main">
      <div className="card narrow">
        <PageHeader title="Choose your password" description="Agent Platform console" />
        {token === '' ? <MissingToken /> : user === null ? <SetPasswordForm token={token} onSet={setUser} /> : <SignInAfterSetting email={user.email} />}
      </div>
    </main>
  );
}

function MissingToken() {
  return (
    <>
      <p className="note note-error" role="alert">
        This link has no token. Open the whole link you were sent, or ask an administrator for a new one.
      </p>
      <p>
        <Link to="/sign-in">Sign in</Link> if you already have a password.
      </p>
    </>
  );
}

function SetPasswordForm({ token, onSet }: { token: string; onSet(user: User): void }) {
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const choose = useMutation({
    mutationFn: (body: { token: string; password: string }) => unwrap(api.POST('/api/v2/auth/set-password', { body })),
    onSuccess: (answer) => onSet(answer.data),
  });
  const refusal = choose.error === null ? undefined : refusalOf(choose.error, { password: 'The new password', token: 'This link' }, 'Password not set:');
  const standing = useStandingRefusals(refusal, choose.variables, { password });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    choose.mutate({ token, password });
  }

  return (
    <Form onSubmit={submit} className="form" validationErrors={standing}>
      <p className="muted">You were invited to Agent Platform. Choose the password you will sign in with.</p>
      <NewPasswordFields password={password} onPasswordChange={setPassword} repeated={repeated} onRepeatedChange={setRepeated} />
      {refusal !== undefined && (
        <div className="note note-error" role="alert">
          {refusal.summary}
          {refusal.fields.token !== undefined && ' Ask an administrator for a new link: each link works once, and not for long.'}
        </div>
      )}
      <Button type="submit" variant="primary" isPending={choose.isPending}>
        Set password
      </Button>
    </Form>
  );
}

function SignInAfterSetting({ email }: { email: string }) {
  const navigate = useNavigate();
  return (
    <>
      <SuccessNote>Your password is set. Sign in with it.</SuccessNote>
      <SignInForm defaultEmail={email} onSignedIn={() => void navigate('/agents', { replace: true })} />
    </>
  );
}

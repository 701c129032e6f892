import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../../session/session';
import { PageHeader } from '../../ui/PageHeader';
import { SignInForm } from './SignInForm';

/** Where to go after signing in: the page asked for, when it is one of the console's. */
function nextPath(next: string | null): string {
  return next !== null && next.startsWith('/') && !next.startsWith('//') ? next : '/agents';
}

export function SignInPage() {
  const { user } = useSession();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const next = nextPath(params.get('next'));
  if (user !== null) return <Navigate to={next} replace />;
  return (
    <main className="centered-page" id="main">
      <div className="card narrow">
        <PageHeader title="Sign in" description="Agent Platform console" />
        <SignInForm onSignedIn={() => void navigate(next, { replace: true })} />
      </div>
    </main>
  );
}

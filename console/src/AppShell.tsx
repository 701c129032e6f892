// The frame of every signed-in page: the navigation, who is signed in, and the page itself.
import { useMutation } from '@tanstack/react-query';
import { Suspense } from 'react';
import { RouterProvider as AriaRouterProvider } from 'react-aria-components';
import { NavLink, Outlet, useHref, useNavigate } from 'react-router';
import { NotificationBell } from './pages/notifications/NotificationBell';
import { SessionExpiredDialog } from './session/SessionExpiredDialog';
import { useSession, useUser } from './session/session';
import { Button } from './ui/Fields';
import { ErrorNote, Loading } from './ui/Feedback';

export function AppShell() {
  const navigate = useNavigate();
  const user = useUser();
  const { signOut } = useSession();
  const signingOut = useMutation({ mutationFn: signOut, onSuccess: () => navigate('/sign-in') });
  return (
    // React Aria's links and menus navigate through the router, not by reloading the page.
    <AriaRouterProvider navigate={(to) => void navigate(to)} useHref={useHref}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="shell">
        <header className="shell-header">
          <NavLink to="/agents" className="brand">
            <img src="/favicon.svg" alt="" width={24} height={24} />
            Agent Platform
          </NavLink>
          <nav aria-label="Main" className="main-nav">
            <NavLink to="/agents">Agents</NavLink>
            <NavLink to="/corpora">Corpora</NavLink>
            <NavLink to="/tools">Tools</NavLink>
            <NavLink to="/guardrails">Guardrails</NavLink>
            <NavLink to="/evaluations">Evaluations</NavLink>
            <NavLink to="/analytics">Analytics</NavLink>
            <NavLink to="/logs">Chat logs</NavLink>
            <NavLink to="/organization">Organization</NavLink>
          </nav>
          <div className="account">
            <NotificationBell />
            {/* The name read out is the one shown, and says where the link goes (WCAG 2.5.3, label in name). */}
            <NavLink to="/profile">
              {[user.first_name, user.last_name].filter(Boolean).join(' ') || user.email}
              <span className="visually-hidden">, your profile</span>
            </NavLink>
            <Button variant="quiet" isPending={signingOut.isPending} onPress={() => signingOut.mutate()}>
              Sign out
            </Button>
          </div>
        </header>
        <main id="main" className="shell-main" tabIndex={-1}>
          <ErrorNote error={signingOut.error} title="You are still signed in: signing out failed." />
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
      <SessionExpiredDialog />
    </AriaRouterProvider>
  );
}

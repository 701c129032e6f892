// The console's pages. Each page is loaded when first opened, so the sign-in page moves little
// JavaScript; deep links (/agents/12/chat) work on reload because the server answers every such path
// with this app.
import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, Outlet, RouterProvider, useLocation } from 'react-router';
import { AppShell } from './AppShell';
import { SessionProvider, useSession } from './session/session';
import { SignInPage } from './pages/account/SignInPage';
import { Loading } from './ui/Feedback';
import { NotFoundPage } from './pages/NotFoundPage';
import { RouteError } from './pages/RouteError';

const AgentsPage = lazy(() => import('./pages/agents/AgentsPage'));
const AgentEditorPage = lazy(() => import('./pages/agents/AgentEditorPage'));
const ChatPage = lazy(() => import('./pages/chat/ChatPage'));
const HistoryPage = lazy(() => import('./pages/history/HistoryPage'));
const HistoryComparePage = lazy(() => import('./pages/history/ComparePage'));
const CorporaPage = lazy(() => import('./pages/corpora/CorporaPage'));
const CorpusPage = lazy(() => import('./pages/corpora/CorpusPage'));
const ProfilePage = lazy(() => import('./pages/account/ProfilePage'));
const SetPasswordPage = lazy(() => import('./pages/account/SetPasswordPage'));
// Each area below routes its own pages (a descendant <Routes> under its path's `/*`).
const AgentBuilderPage = lazy(() => import('./pages/builder/AgentBuilderPage'));
const EvaluationsArea = lazy(() => import('./pages/evaluations/EvaluationsArea'));
const AnalyticsArea = lazy(() => import('./pages/analytics/AnalyticsArea'));
const ChatLogsArea = lazy(() => import('./pages/logs/ChatLogsArea'));
const ToolsArea = lazy(() => import('./pages/tools/ToolsArea'));
const GuardrailsArea = lazy(() => import('./pages/guardrails/GuardrailsArea'));
const OrganizationArea = lazy(() => import('./pages/organization/OrganizationArea'));
const NotificationsPage = lazy(() => import('./pages/notifications/NotificationsPage'));

function RequireSession() {
  const { user, isLoading } = useSession();
  const location = useLocation();
  if (isLoading) return <Loading label="Opening the console…" />;
  if (user === null) return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return <AppShell />;
}

function Page() {
  return (
    <Suspense fallback={<Loading />}>
      <Outlet />
    </Suspense>
  );
}

const router = createBrowserRouter([
  {
    element: (
      <SessionProvider>
        <Page />
      </SessionProvider>
    ),
    errorElement: <RouteError />,
    children: [
      { path: '/sign-in', element: <SignInPage /> },
      { path: '/set-password', element: <SetPasswordPage /> },
      {
        element: <RequireSession />,
        errorElement: <RouteError />,
        children: [
          { index: true, element: <Navigate to="/agents" replace /> },
          { path: '/agents', element: <AgentsPage /> },
          { path: '/agents/new', element: <AgentEditorPage /> },
          { path: '/agents/builder', element: <AgentBuilderPage /> },
          { path: '/agents/:agentId', element: <AgentEditorPage /> },
          { path: '/agents/:agentId/chat', element: <ChatPage /> },
          { path: '/agents/:agentId/chat/:threadId', element: <ChatPage /> },
          { path: '/agents/:agentId/history', element: <HistoryPage /> },
          { path: '/agents/:agentId/history/compare', element: <HistoryComparePage /> },
          { path: '/corpora', element: <CorporaPage /> },
          { path: '/corpora/:corpusId', element: <CorpusPage /> },
          { path: '/evaluations/*', element: <EvaluationsArea /> },
          { path: '/analytics/*', element: <AnalyticsArea /> },
          { path: '/logs/*', element: <ChatLogsArea /> },
          { path: '/tools/*', element: <ToolsArea /> },
          { path: '/guardrails/*', element: <GuardrailsArea /> },
          { path: '/organization/*', element: <OrganizationArea /> },
          { path: '/notifications', element: <NotificationsPage /> },
          { path: '/profile', element: <ProfilePage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
]);

export function App() {
  return <RouterProvider router={router} />;
}

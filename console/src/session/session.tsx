// Who is signed in. The session is the server's HttpOnly cookie, which this code never sees: the
// signed-in user is whatever GET /api/v2/users/me answers; a 401 there means signed out. When a
// request finds the session ended mid-work, the page stays as it is and a sign-in dialog opens over
// it (SessionExpiredDialog), so a half-typed question or instruction is not lost.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { api, onSessionEnded, type Schemas } from '../api/client';
import { ApiError, unwrap } from '../api/errors';

export type CurrentUser = Schemas['CurrentUser'];
export type Role = CurrentUser['role'];

interface Session {
  user: CurrentUser | null;
  /** True until the first answer about the session. */
  isLoading: boolean;
  /** True when a request found the session ended while the console was open. */
  expired: boolean;
  signIn(email: string, password: string): Promise<void>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

export const ME_QUERY_KEY = ['me'] as const;

async function fetchMe(): Promise<CurrentUser | null> {
  try {
    return (await unwrap(api.GET('/api/v2/users/me'))).data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const me = useQuery({ queryKey: ME_QUERY_KEY, queryFn: fetchMe, staleTime: 60_000, retry: false });
  const [expired, setExpired] = useState(false);
  const user = me.data ?? null;

  useEffect(() => onSessionEnded(() => setExpired(true)), []);

  const signIn = useCallback(
    async (email: string, password: string) => {
      await unwrap(api.POST('/api/v2/auth/login', { body: { email, password, session: 'cookie' } }));
      setExpired(false);
      await queryClient.invalidateQueries();
    },
    [queryClient],
  );

  const signOut = useCallback(async () => {
    try {
      await unwrap(api.POST('/api/v2/auth/logout'));
    } catch (error) {
      // A session that had already ended is as good as signed out; any other failure leaves the
      // session alive on the server, so the person stays signed in here and is told (AppShell).
      if (!(error instanceof ApiError && error.status === 401)) throw error;
    }
    setExpired(false);
    queryClient.clear();
    queryClient.setQueryData(ME_QUERY_KEY, null);
  }, [queryClient]);

  const value = useMemo<Session>(
    () => ({ user, isLoading: me.isPending, expired: expired && user !== null, signIn, signOut }),
    [user, me.isPending, expired, signIn, signOut],
  );
  if (me.isError) throw me.error;
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (session === null) throw new Error('useSession outside SessionProvider');
  return session;
}

/** The signed-in user; only under a route that requires a session. */
export function useUser(): CurrentUser {
  const { user } = useSession();
  if (user === null) throw new Error('useUser without a signed-in user');
  return user;
}

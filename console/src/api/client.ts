// The console's one client of the API: the typed package, same origin, the session cookie sent by
// the browser. Every state-changing request repeats the CSRF cookie in X-CSRF-Token (double submit);
// a 401 on anything but the sign-in itself means the session ended, which the session provider
// turns into a sign-in dialog over the page (what was typed stays where it was).
import { createClient, type Schemas } from '@agent-platform/client';

export type { Schemas };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const CSRF_COOKIE = 'ap_csrf';

export function csrfToken(): string | undefined {
  const prefix = `${CSRF_COOKIE}=`;
  const cookie = document.cookie.split('; ').find((entry) => entry.startsWith(prefix));
  return cookie === undefined ? undefined : decodeURIComponent(cookie.slice(prefix.length));
}

/** Headers every state-changing request of this console carries (also for raw fetches: uploads, streams). */
export function csrfHeaders(): Record<string, string> {
  const token = csrfToken();
  return token === undefined ? {} : { 'x-csrf-token': token };
}

type SessionListener = () => void;
const sessionEndListeners = new Set<SessionListener>();

/** Called when a request finds the session gone; returns the unsubscribe. */
export function onSessionEnded(listener: SessionListener): () => void {
  sessionEndListeners.add(listener);
  return () => sessionEndListeners.delete(listener);
}

export function reportSessionEnded(): void {
  for (const listener of sessionEndListeners) listener();
}

const PUBLIC_PATHS = ['/api/v2/auth/login', '/api/v2/auth/set-password'];

export const api = createClient({ baseUrl: window.location.origin, credentials: 'same-origin' });

api.use({
  onRequest({ request }) {
    if (!SAFE_METHODS.has(request.method)) {
      const token = csrfToken();
      if (token !== undefined) request.headers.set('x-csrf-token', token);
    }
    return request;
  },
  onResponse({ request, response }) {
    if (response.status === 401 && !PUBLIC_PATHS.some((path) => new URL(request.url).pathname === path)) reportSessionEnded();
    return response;
  },
});

// The browser session's two cookies (docs/api.md, "The browser session"): `ap_session` carries the
// session token, HttpOnly so that no script reads it; `ap_csrf` is readable, and a script of the
// site repeats it in X-CSRF-Token on every state-changing request (double submit), which a page of
// another site cannot do. This file reads them from a Cookie header and writes them on an answer;
// what they are worth is decided where every credential is (auth.service.ts).

export const SESSION_COOKIE = 'ap_session';
export const CSRF_COOKIE = 'ap_csrf';
export const CSRF_HEADER = 'x-csrf-token';

export interface SessionCookies {
  /** Every distinct non-empty value of ap_session: one normally, none when absent or cleared. */
  sessions: string[];
  /** Every distinct non-empty value of ap_csrf. */
  csrfs: string[];
}

/**
 * Our two cookies in a Cookie header, others skipped unread. A name may come more than once: a
 * sibling subdomain can set a cookie for the parent domain, and the browser then sends both, in an
 * order nobody promises; so every value is kept, and the caller decides what several mean. Values are
 * taken as sent (ours are base64url), without surrounding quotes; pairs without `=` are skipped.
 */
export function readSessionCookies(header: string | undefined): SessionCookies {
  const cookies: SessionCookies = { sessions: [], csrfs: [] };
  if (header === undefined || header === '') return cookies;
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals === -1) continue;
    const name = pair.slice(0, equals).trim();
    const values = name === SESSION_COOKIE ? cookies.sessions : name === CSRF_COOKIE ? cookies.csrfs : undefined;
    if (values === undefined) continue;
    let value = pair.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (value !== '' && !values.includes(value)) values.push(value);
  }
  return cookies;
}

/** The one session token the Cookie header carries; undefined when it carries none, or several. */
export function sessionCookieToken(header: string | undefined): string | undefined {
  const { sessions } = readSessionCookies(header);
  return sessions.length === 1 ? sessions[0] : undefined;
}

/**
 * Whether the cookies must be Secure: the request came over HTTPS (as the server sees it, or as a
 * trusted proxy says in X-Forwarded-Proto), or the server's public address is HTTPS.
 */
export function cookiesAreSecure(requestProtocol: string | undefined, publicBaseUrl: URL): boolean {
  return requestProtocol === 'https' || publicBaseUrl.protocol === 'https:';
}

interface CookieAttributes {
  maxAgeSeconds: number;
  secure: boolean;
}

function setCookie(name: string, value: string, httpOnly: boolean, { maxAgeSeconds, secure }: CookieAttributes): string {
  const attributes = [`${name}=${value}`, `Max-Age=${maxAgeSeconds}`, 'Path=/', 'SameSite=Strict'];
  if (httpOnly) attributes.push('HttpOnly');
  if (secure) attributes.push('Secure');
  return attributes.join('; ');
}

/** The Set-Cookie values that open a browser session: the token (HttpOnly) and its CSRF value (readable). */
export function sessionCookieHeaders(token: string, csrf: string, attributes: CookieAttributes): string[] {
  return [setCookie(SESSION_COOKIE, token, true, attributes), setCookie(CSRF_COOKIE, csrf, false, attributes)];
}

/** The Set-Cookie values that remove both cookies (same name, path and flags; no life left). */
export function clearedSessionCookieHeaders(secure: boolean): string[] {
  const attributes = { maxAgeSeconds: 0, secure };
  return [setCookie(SESSION_COOKIE, '', true, attributes), setCookie(CSRF_COOKIE, '', false, attributes)];
}

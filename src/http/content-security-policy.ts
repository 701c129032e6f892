// The one Content-Security-Policy of every answer, worked out once at import. It lets the pages this
// server serves itself run: the API reference at /docs and the web console, both static files
// of this origin (no CDN, no inline script) that call the API of this origin. Anything else a
// browser might render from here (an uploaded HTML file read back, an error page) may run nothing
// from elsewhere.
//
// No upgrade-insecure-requests: behind plain HTTP (a container reached by its address, a proxy that
// ends TLS in front), it would send the page's own scripts and styles to an https:// that does not
// answer, and /docs would stay blank. Whether the site is HTTPS is the proxy's decision.

/** Directive → sources; a directive without sources is written alone. */
export type CspDirectives = Readonly<Record<string, readonly string[]>>;

export const CONTENT_SECURITY_POLICY_DIRECTIVES: CspDirectives = {
  // Nothing that is not listed below.
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  // No inline event handlers (onclick="…"), whatever a page's markup holds.
  'script-src-attr': ["'none'"],
  // Inline styles are what UI libraries set on elements (the reference's syntax highlighting); they
  // run no code.
  'style-src': ["'self'", "'unsafe-inline'"],
  // data: for the icons the reference inlines; blob: for images a page fetched with its token.
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  // The API of this origin: fetch, and the event streams of answers and documents.
  'connect-src': ["'self'"],
  'manifest-src': ["'self'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  // Not framed by other sites (clickjacking).
  'frame-ancestors': ["'none'"],
  'object-src': ["'none'"],
};

/** The header value: `name source source; name source; …`. */
export function buildContentSecurityPolicy(directives: CspDirectives): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
}

export const CONTENT_SECURITY_POLICY = buildContentSecurityPolicy(CONTENT_SECURITY_POLICY_DIRECTIVES);

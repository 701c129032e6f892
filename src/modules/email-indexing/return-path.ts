// Where the browser goes once the e-mail authorization's callback ends, when the authorization was
// started from one of this server's own pages (the console's sources page) and named it. Only a path
// of this origin is accepted — `/organization/sources`, never `//elsewhere.example`, `/\elsewhere`,
// `https://…` or anything with spaces or control characters — so the public callback can never be
// turned into a redirect to another site. The path is checked when the authorization starts (the
// schema's pattern) and again when the browser is sent to it; it travels inside the signed state.

/** At most 200 printable ASCII characters, a single leading slash, no backslash. */
export const RETURN_PATH_PATTERN = '^/(?![/\\\\])[!-\\[\\]-~]{0,199}$';
const RETURN_PATH = new RegExp(RETURN_PATH_PATTERN);

const OWN_ORIGIN = 'http://own-origin.invalid';

/**
 * The path with the outcome added to its query (`linked_mailbox=<id>`, or `link_error=<message>`), as a
 * relative Location; undefined when the path is not one of this origin's.
 */
export function returnLocation(path: string, outcome: Record<string, string>): string | undefined {
  if (!RETURN_PATH.test(path)) return undefined;
  const target = new URL(path, OWN_ORIGIN);
  if (target.origin !== OWN_ORIGIN) return undefined;
  for (const [name, value] of Object.entries(outcome)) target.searchParams.set(name, value);
  return `${target.pathname}${target.search}`;
}

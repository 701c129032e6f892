// An API tool's URL template read by the same parser that sends its requests (WHATWG URL), never by
// a pattern of our own: a pattern and the parser disagree on text such as " https://{h}.com" or
// "https:\\{h}.com", and the tool's secret then goes to a host the model chooses. Where the request
// goes (scheme, host, port) is decided by filling every placeholder with different values and
// requiring the parser to find the same destination each time; text the parser would read otherwise
// than people do (spaces and controls it drops, a backslash it takes for a slash, a scheme without its
// two slashes) is refused, so that what people see is what is called.

/** `{name}` in a URL template; the name is what the tool's path parameter is called. */
export const URL_PLACEHOLDER = /\{([^{}/?#]+)\}/g;

/** Pairs of values a placeholder is filled with: one of each pair moves any destination it stands in. */
const PROBES: readonly (readonly [string, string])[] = [
  ['1', '2'],
  ['a', 'b'],
];

export function fillUrlTemplate(template: string, valueOf: (name: string, index: number) => string): string {
  let index = 0;
  return template.replace(URL_PLACEHOLDER, (_match, name: string) => valueOf(name, index++));
}

function parse(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** Where a request to the URL goes, and with which credentials in the URL: what placeholders must never change. */
export function destinationOf(url: URL): string {
  return `${url.protocol}//${url.username}:${url.password}@${url.host}`;
}

/** The fixed destination of the template, or undefined when a placeholder can change it. */
export function fixedDestinationOf(template: string): string | undefined {
  let destination: string | undefined;
  for (const [first, second] of PROBES) {
    const one = parse(fillUrlTemplate(template, () => first));
    const other = parse(fillUrlTemplate(template, () => second));
    // Only the scheme and authority can make a URL unparsable: a value that does so stands there.
    if ((one === undefined) !== (other === undefined)) return undefined;
    if (one === undefined || other === undefined) continue;
    if (destinationOf(one) !== destinationOf(other)) return undefined;
    destination = destinationOf(one);
  }
  return destination !== undefined && !/[{}]/.test(destination) ? destination : undefined;
}

/** A stand-in for the placeholder at `index`, kept as it is by the parser in a path, query or fragment. */
const token = (index: number) => `zzplaceholder${index}zz`;

/** What is wrong with the template as the URL of an API tool, or null when nothing is. */
export function urlTemplateProblem(template: string): string | null {
  // The parser drops leading and trailing spaces and control characters, and tabs and line breaks
  // anywhere, and reads a backslash as a slash: text people would read otherwise.
  if (/^[\0-\x20]|[\0-\x20]$/.test(template)) return 'must not begin or end with a space or a control character';
  if (/[\t\n\r]/.test(template)) return 'must not hold a tab or a line break';
  if (/[\0-\x1f\x7f]/.test(template)) return 'must not hold control characters';
  if (template.includes('\\')) return 'must not hold a backslash';
  // "https:/h", "https:h" and "https:///h" all reach host h: only the form people read as a URL is taken.
  if (!/^https?:\/\/[^/]/i.test(template)) return 'must begin with http:// or https:// and a host';
  const probe = fillUrlTemplate(template, (_name, index) => token(index));
  const url = parse(probe);
  if (url === undefined) {
    return PROBES.some(([value]) => parse(fillUrlTemplate(template, () => value)) !== undefined)
      ? 'placeholders may only stand in the path, not in the scheme, host or port'
      : 'is not an absolute URL';
  }
  if (fixedDestinationOf(template) === undefined || destinationOf(url).includes('zzplaceholder')) {
    return 'placeholders may only stand in the path, not in the scheme, host or port';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http: or https: URL';
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password (use auth)';
  return null;
}

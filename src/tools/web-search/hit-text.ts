// Titles and snippets as providers write them hold HTML (Brave marks the query's words with
// <strong>, SearXNG passes entities through): the model gets plain text, bounded, and only http(s)
// links, whatever a provider answers.

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

export const SNIPPET_CHARACTERS = 500;
const TITLE_CHARACTERS = 200;

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8}|#39);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (ENTITIES[lower] !== undefined) return ENTITIES[lower]!;
    const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : lower.startsWith('#') ? parseInt(lower.slice(1), 10) : NaN;
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** Plain text of a provider's field: tags removed, entities decoded, white space collapsed, cut. */
export function plainText(value: unknown, limit = SNIPPET_CHARACTERS): string {
  if (typeof value !== 'string') return '';
  const text = decodeEntities(value.replace(/<[^>]{0,500}>/g, '')).replace(/\s+/g, ' ').trim();
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

export const plainTitle = (value: unknown) => plainText(value, TITLE_CHARACTERS);

/** The link if it is an absolute http(s) URL, else undefined (the hit is then left out). */
export function webLink(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 2000) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The hits of a provider's list of results, each read by `read`; those without a usable link left out. */
export function hitsOf(results: unknown[], read: (result: Record<string, unknown>) => { title: unknown; url: unknown; snippet: unknown }) {
  return results.flatMap((result) => {
    if (typeof result !== 'object' || result === null) return [];
    const fields = read(result as Record<string, unknown>);
    const url = webLink(fields.url);
    if (url === undefined) return [];
    return [{ title: plainTitle(fields.title) || url, url, snippet: plainText(fields.snippet) }];
  });
}

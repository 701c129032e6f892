// Web search tools against fake providers on loopback, each answering in its real shape: SearXNG's
// JSON format, Tavily's POST /search, Brave's /res/v1/web/search. The request each sends (and how its
// key is masked), the results the model reads, the errors (401, 429, 5xx, a hang past the deadline,
// answers that are not the provider's JSON) as outcomes without the key, and fetch_pages: a page's
// readable text, a link to a private address refused before anything is sent.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEgressClient, type EgressClient } from '../src/net/egress.js';
import type { StoredTool, ToolRunContext } from '../src/tools/tool.js';
import { createWebSearchTool } from '../src/tools/web-search/index.js';
import { startListener, type Handler, type Listener } from './support/listeners.js';
import { runContext } from './support/tool-context.js';

const KEY = 'tvly-secret-key-0123456789';
const actor = { userId: 1, organizationId: 1, email: 'a@example.com', role: 'member' as const, credential: { kind: 'api_key' as const, id: 1 } };

let listeners: Listener[] = [];
let egress: EgressClient;

/** A fake provider on loopback; the egress client allows exactly its port. */
async function provider(handler: Handler): Promise<Listener> {
  const listener = await startListener(handler);
  listeners.push(listener);
  return listener;
}

function json(response: Parameters<Handler>[1], status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function toolOf(config: Record<string, unknown>, secret: string | null = null, maxOutputCharacters = 16_000) {
  const stored: StoredTool = { id: 1, organization_id: 1, kind: 'web_search', name: 'web', description: 'Searches the web', config, secret };
  return createWebSearchTool(stored, { egress, maxOutputCharacters });
}

const context = (overrides: Partial<ToolRunContext> = {}) => runContext(actor, overrides);

/** The egress client allows the listeners made so far, by host and port. */
function allow(...allowed: Listener[]) {
  egress?.close();
  egress = createEgressClient({ allowedHosts: allowed.map((listener) => `127.0.0.1:${listener.port}`), defaultTimeoutMs: 10_000 });
}

afterEach(async () => {
  egress?.close();
  await Promise.all(listeners.map((listener) => listener.close()));
  listeners = [];
});

const searxngResults = [
  { url: 'https://example.org/rust', title: 'The Rust &amp; Cargo book', content: 'Rust is a <b>systems</b> language.', engine: 'duckduckgo', score: 2.5, category: 'general' },
  { url: 'https://example.org/go', title: 'Go', content: 'Go is simple.', engine: 'bing', score: 1.2, category: 'general' },
  { url: 'javascript:alert(1)', title: 'Not a link', content: 'left out', engine: 'x', score: 1, category: 'general' },
  { url: 'https://example.org/zig', title: 'Zig', content: 'Zig is small.', engine: 'bing', score: 1.0, category: 'general' },
];

describe('web search providers', () => {
  it('SearXNG: GET /search?q=…&format=json on the instance, results numbered with URL and snippet, cut to max_results', async () => {
    const searx = await provider((request, response) => json(response, 200, { query: 'rust', number_of_results: 4, results: searxngResults, answers: [], suggestions: [], unresponsive_engines: [] }));
    allow(searx);
    const tool = toolOf({ provider: 'searxng', base_url: `${searx.origin}/searx`, max_results: 2 });
    expect(tool.definition.parameters).toMatchObject({ required: ['query'], properties: { max_results: { maximum: 2 } } });

    const outcome = await tool.run({ query: 'rust language' }, context());
    expect(outcome.status).toBe('ok');
    const sent = new URL(searx.requests[0]!.url!, searx.origin);
    expect(searx.requests[0]!.method).toBe('GET');
    expect(sent.pathname).toBe('/searx/search');
    expect(Object.fromEntries(sent.searchParams)).toEqual({ q: 'rust language', format: 'json' });
    expect(outcome.output).toContain('[1] The Rust & Cargo book\nURL: https://example.org/rust\nRust is a systems language.');
    expect(outcome.output).toContain('[2] Go\nURL: https://example.org/go');
    expect(outcome.output).not.toContain('[3]');
    expect(outcome.request).toMatchObject({ method: 'GET', url: `${searx.origin}/searx/search?q=rust+language&format=json`, body: null });
  });

  it('Tavily: POST /search with the key as a bearer token and its JSON body; the key masked in the request shown', async () => {
    const tavily = await provider((_request, response, body) => {
      const sent = JSON.parse(body.toString());
      json(response, 200, {
        query: sent.query,
        answer: null,
        images: [],
        results: [
          { title: 'Tavily result one', url: 'https://news.example.com/a', content: 'First finding about the topic.', score: 0.93, raw_content: null },
          { title: 'Tavily result two', url: 'https://news.example.com/b', content: 'Second finding.', score: 0.71, raw_content: null },
        ],
        response_time: 1.2,
      });
    });
    allow(tavily);
    const tool = toolOf({ provider: 'tavily', base_url: tavily.origin }, KEY);
    const outcome = await tool.run({ query: 'topic news', max_results: 3 }, context());

    expect(outcome.status).toBe('ok');
    const request = tavily.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/search');
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.headers['content-type']).toBe('application/json');
    expect(outcome.output).toContain('[1] Tavily result one\nURL: https://news.example.com/a\nFirst finding about the topic.');
    expect(outcome.request!.headers.authorization).toBe('Bearer ****');
    expect(JSON.parse(outcome.request!.body!)).toMatchObject({ query: 'topic news', max_results: 3, search_depth: 'basic' });
    expect(JSON.stringify(outcome)).not.toContain(KEY);
  });

  it('Brave: GET /res/v1/web/search with X-Subscription-Token and count; highlighting removed; no `web` is no results', async () => {
    let empty = false;
    const brave = await provider((_request, response) => {
      if (empty) return json(response, 200, { type: 'search', query: { original: 'nothing' }, mixed: { type: 'mixed', main: [] } });
      json(response, 200, {
        type: 'search',
        query: { original: 'fastify plugins' },
        web: {
          type: 'search',
          family_friendly: true,
          results: [
            { type: 'search_result', title: 'Plugins | <strong>Fastify</strong>', url: 'https://fastify.dev/docs/latest/Reference/Plugins/', description: 'Fastify allows the user to extend its functionalities with <strong>plugins</strong>.', language: 'en' },
          ],
        },
      });
    });
    allow(brave);
    const tool = toolOf({ provider: 'brave', base_url: brave.origin, max_results: 4 }, KEY);
    const outcome = await tool.run({ query: 'fastify plugins' }, context());

    expect(outcome.status).toBe('ok');
    const sent = new URL(brave.requests[0]!.url!, brave.origin);
    expect(sent.pathname).toBe('/res/v1/web/search');
    expect(Object.fromEntries(sent.searchParams)).toEqual({ q: 'fastify plugins', count: '4' });
    expect(brave.requests[0]!.headers['x-subscription-token']).toBe(KEY);
    expect(outcome.output).toContain('[1] Plugins | Fastify\nURL: https://fastify.dev/docs/latest/Reference/Plugins/\nFastify allows the user to extend its functionalities with plugins.');
    expect(outcome.request!.headers['x-subscription-token']).toBe('****');

    empty = true;
    const none = await tool.run({ query: 'nothing' }, context());
    expect(none).toMatchObject({ status: 'ok', output: 'No web results for "nothing" (Brave Search).' });
  });
});

describe('web search failures', () => {
  let failing: Listener;
  let answer: (response: Parameters<Handler>[1]) => void;
  let hung: Listener;
  let onHungRequest: () => void = () => {};

  beforeAll(async () => {
    failing = await startListener((_request, response) => answer(response));
    hung = await startListener(() => onHungRequest());
  });
  afterAll(async () => {
    await failing.close();
    await hung.close();
  });

  const cases: [string, (response: Parameters<Handler>[1]) => void, RegExp, number | undefined][] = [
    ['401', (r) => json(r, 401, { detail: { error: `Unauthorized: missing or invalid API key ${KEY}` } }), /Tavily refused the API key \(HTTP 401\): check the tool's secret/, 401],
    ['429', (r) => json(r, 429, { detail: 'slow down' }, { 'retry-after': '30' }), /limiting the rate of searches \(HTTP 429\) \(it asks to wait 30 s\)/, 429],
    ['500', (r) => json(r, 500, 'boom'), /Tavily failed \(HTTP 500 Internal Server Error\)/, 500],
    ['400 echoing the key', (r) => json(r, 400, { detail: `bad key ${KEY} in body` }), /Tavily refused the search \(HTTP 400\): .*bad key \*\*\*\* in body/, 400],
    ['not JSON', (r) => r.end('<html>maintenance</html>'), /Tavily answered with something that is not JSON/, 200],
    ['JSON of another shape', (r) => json(r, 200, { results: 'none' }), /Tavily answered JSON that is not a list of search results/, undefined],
  ];

  it.each(cases)('%s: an error outcome that says what happened, without the key', async (_name, respond, message, status) => {
    answer = respond;
    allow(failing);
    const outcome = await toolOf({ provider: 'tavily', base_url: failing.origin }, KEY).run({ query: 'anything' }, context());
    expect(outcome.status).toBe('error');
    expect(outcome.output).toMatch(message);
    if (status !== undefined && status !== 200) expect(outcome.httpStatus).toBe(status);
    expect(JSON.stringify(outcome)).not.toContain(KEY);
    expect(outcome.request!.headers.authorization).toBe('Bearer ****');
  });

  it('a provider that does not answer within the deadline: a timeout outcome', async () => {
    allow(hung);
    onHungRequest = () => {};
    const outcome = await toolOf({ provider: 'searxng', base_url: hung.origin }).run({ query: 'slow' }, context({ timeoutMs: 150 }));
    expect(outcome).toMatchObject({ status: 'error', output: 'SearXNG did not answer within 150 ms' });
  });

  it('a search cancelled by the answer’s signal ends at once', async () => {
    allow(hung);
    const controller = new AbortController();
    onHungRequest = () => controller.abort();
    const outcome = await toolOf({ provider: 'searxng', base_url: hung.origin }).run({ query: 'slow' }, context({ signal: controller.signal }));
    expect(outcome).toMatchObject({ status: 'error', output: 'The search was cancelled before SearXNG answered' });
  });

  it('an instance at an address that is not allowed is refused, and receives nothing', async () => {
    allow();
    const before = failing.connections();
    const outcome = await toolOf({ provider: 'searxng', base_url: failing.origin }).run({ query: 'x' }, context());
    expect(outcome.status).toBe('error');
    expect(outcome.output).toMatch(/^The address of SearXNG was refused: Refused to fetch http:\/\/127\.0\.0\.1:\d+\/search: the host is a loopback address/);
    expect(failing.connections()).toBe(before);
  });

  it('settings or arguments that cannot make a search: an error outcome, nothing sent', async () => {
    allow(failing);
    const before = failing.connections();
    expect((await toolOf({ provider: 'searxng' }).run({ query: 'x' }, context())).output).toMatch(/needs config\.base_url/);
    expect((await toolOf({ provider: 'brave', base_url: failing.origin }).run({ query: 'x' }, context())).output).toMatch(/needs its API key/);
    const tool = toolOf({ provider: 'searxng', base_url: failing.origin });
    expect(await tool.run({}, context())).toMatchObject({ status: 'error', output: 'The search needs a query: a non-empty string' });
    expect(await tool.run({ query: '   ' }, context())).toMatchObject({ status: 'error' });
    expect(await tool.run({ query: 'x'.repeat(401) }, context())).toMatchObject({ status: 'error' });
    expect(await tool.run({ query: 'x', max_results: 'many' }, context())).toMatchObject({ status: 'error', output: 'max_results must be a positive integer' });
    expect(failing.connections()).toBe(before);
  });
});

describe('web search with fetch_pages', () => {
  /** Pages: /latin1 plain text in ISO-8859-1, /image a PNG, anything else the given HTML. */
  const pageServer = (html: string) =>
    provider((request, response) => {
      if (request.url === '/latin1') {
        response.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' });
        return response.end(Buffer.from('Caf\xe9 cr\xe8me', 'latin1'));
      }
      if (request.url === '/image') {
        response.writeHead(200, { 'content-type': 'image/png' });
        return response.end(Buffer.alloc(10));
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html);
    });

  it('adds the readable text of the top pages; a link to a private or loopback address is refused and said so', async () => {
    const article =
      '<!doctype html><html><head><title>Article</title><script>var tracking = "SCRIPT-TEXT";</script></head>' +
      '<body><nav>Home | About</nav><main><h1>Solar power</h1><p>Panels turn sunlight into electricity.</p></main><footer>Footer links</footer></body></html>';
    const pages = await pageServer(article);
    const internal = await provider((_request, response) => response.end('internal secret'));
    const results = [
      { url: `${pages.origin}/article`, title: 'Solar', content: 'About solar power.' },
      { url: `http://127.0.0.1:${internal.port}/admin`, title: 'Internal', content: 'A link to the loopback.' },
      { url: 'http://169.254.169.254/latest/meta-data/', title: 'Metadata', content: 'Cloud metadata.' },
      { url: `${pages.origin}/latin1`, title: 'Fourth', content: 'Not fetched: only the top three are.' },
    ];
    const searx = await provider((_request, response) => json(response, 200, { results }));
    allow(searx, pages);

    const outcome = await toolOf({ provider: 'searxng', base_url: searx.origin, fetch_pages: true, max_results: 4 }).run({ query: 'solar' }, context());
    expect(outcome.status).toBe('ok');
    expect(outcome.output).toMatch(/\[1\] Solar\nURL: .*\/article\nAbout solar power\.\nPage text: [^\n]*Solar power\nPanels turn sunlight into electricity\./);
    expect(outcome.output).not.toContain('SCRIPT-TEXT');
    expect(outcome.output).not.toContain('Home | About');
    expect(outcome.output).toMatch(/\[2\] Internal\n.*\n.*\nPage not read: Refused to fetch http:\/\/127\.0\.0\.1:\d+\/admin: the host is a loopback address/);
    expect(outcome.output).toMatch(/\[3\] Metadata\n.*\n.*\nPage not read: Refused to fetch http:\/\/169\.254\.169\.254\/latest\/meta-data\/: the host is a link-local address/);
    expect(outcome.output).toMatch(/\[4\] Fourth\nURL: [^\n]*\nNot fetched: only the top three are\.$/);
    expect(internal.connections()).toBe(0);
    expect(pages.requests.map((request) => request.url)).toEqual(['/article']);
  });

  it('reads pages in other charsets, says why a page of another kind is not read, and stays within the output cap', async () => {
    const long = `<html><body><p>${'Wind turbines spin. '.repeat(2000)}</p></body></html>`;
    const pages = await pageServer(long);
    const results = ['/latin1', '/image', '/long'].map((path) => ({ url: `${pages.origin}${path}`, title: path, content: 'snippet' }));
    const searx = await provider((_request, response) => json(response, 200, { results }));
    allow(searx, pages);

    const outcome = await toolOf({ provider: 'searxng', base_url: searx.origin, fetch_pages: true }, null, 3_000).run({ query: 'energy' }, context());
    expect(outcome.status).toBe('ok');
    expect(outcome.output).toContain('Page text: Café crème');
    expect(outcome.output).toContain('Page not read: the page is image/png, not HTML or text');
    expect(outcome.output).toMatch(/Page text: Wind turbines spin\. .*…/);
    expect(outcome.output.length).toBeLessThanOrEqual(3_000);
  });
});

// The pure parts of API tools: where parameters go and how they are encoded, body templates, what
// the request shown hides, what the model reads of an answer, OpenAPI schemas made standalone, every
// shipped template valid, a test run timed by the clock it is given, and a tool that reports its
// failures instead of throwing.
import { describe, expect, it } from 'vitest';
import { EgressFailed, EgressRefused } from '../src/net/egress-errors.js';
import type { EgressClient, EgressResponse } from '../src/net/egress.js';
import { AllowList } from '../src/net/allowed-hosts.js';
import { runToolOnce } from '../src/modules/tools/tool-test-run.js';
import { createApiTool } from '../src/tools/api/api-tool.js';
import type { ApiToolConfig } from '../src/tools/api/config.js';
import { apiConfigProblems } from '../src/tools/api/config-check.js';
import { copySchema, SchemaBudget } from '../src/tools/api/openapi/schema-copy.js';
import { placementsOf } from '../src/tools/api/placements.js';
import { buildApiRequest, maskRequest } from '../src/tools/api/request-builder.js';
import { capOutput, responseText } from '../src/tools/api/response-text.js';
import { toolTemplates } from '../src/tools/templates/index.js';
import { checkTemplates } from '../src/tools/templates/template.js';
import type { StoredTool, ToolRunContext } from '../src/tools/tool.js';

const actor = { userId: 1, organizationId: 1, email: 'owner@example.com', role: 'owner' as const, credential: { kind: 'api_key' as const, id: 1 } };
const context = (overrides: Partial<ToolRunContext> = {}): ToolRunContext => ({ actor, threadId: null, signal: new AbortController().signal, timeoutMs: 1000, maxResponseBytes: 1024, ...overrides });

const config = (overrides: Partial<ApiToolConfig> = {}): ApiToolConfig => ({
  method: 'GET',
  url: 'https://api.example.com/v1/items/{id}',
  parameters: { type: 'object', properties: { id: { type: 'string' }, q: { type: 'string' }, n: { type: 'integer' } } },
  ...overrides,
});

describe('placements', () => {
  it('go in the path when the URL names them, in the body when the template does, else in the query of GET and DELETE and the body of the others', () => {
    expect(Object.fromEntries(placementsOf(config()))).toEqual({ id: { in: 'path', name: 'id' }, q: { in: 'query', name: 'q' }, n: { in: 'query', name: 'n' } });
    expect(Object.fromEntries(placementsOf(config({ method: 'POST', body: { x: '{{n}}' } })))).toEqual({ id: { in: 'path', name: 'id' }, q: { in: 'body', name: 'q' }, n: { in: 'body', name: 'n' } });
    expect(placementsOf(config({ locations: { q: { in: 'header', name: 'X-Q' } } })).get('q')).toEqual({ in: 'header', name: 'X-Q' });
  });
});

describe('the request', () => {
  it('encodes path values, repeats query arrays, writes objects as JSON and leaves absent parameters out', () => {
    const request = buildApiRequest(
      config({ parameters: { type: 'object', properties: { id: {}, q: {}, n: {} } }, locations: { n: 'query' } }),
      { id: '../x?y#z', q: ['a', 'b'], n: { deep: [1] } },
      null,
    );
    expect(request).toEqual({ method: 'GET', url: 'https://api.example.com/v1/items/..%2Fx%3Fy%23z?q=a&q=b&n=%7B%22deep%22%3A%5B1%5D%7D', headers: {}, body: null });
    expect(() => buildApiRequest(config(), { q: 'no id' }, null)).toThrow(/path parameter id is missing/);
  });

  it('needs the secret its authentication names, and hides it wherever it went', () => {
    expect(() => buildApiRequest(config({ auth: { type: 'bearer' } }), { id: '1' }, null)).toThrow(/no secret/);
    const withKey = config({ auth: { type: 'api_key', in: 'query', name: 'key' }, locations: { q: 'header' } });
    const request = buildApiRequest(withKey, { id: '1', q: 'echo s3cr3t+value' }, 's3cr3t+value');
    expect(request.url).toBe('https://api.example.com/v1/items/1?key=s3cr3t%2Bvalue');
    const shown = maskRequest(request, withKey, 's3cr3t+value');
    expect(shown.url).toBe('https://api.example.com/v1/items/1?key=****');
    expect(shown.headers.q).toBe('echo ****');
    expect(JSON.stringify(shown)).not.toContain('s3cr3t');
  });
});

describe('what the model reads', () => {
  const answer = (body: string | Buffer, type: string, status = 200): EgressResponse => ({ status, headers: { 'content-type': type }, body: Buffer.from(body), url: 'https://api.example.com' });

  it('writes JSON compactly, gives text as it is, describes binary content, says when there is none', () => {
    expect(responseText(answer('{\n  "a": [1, 2]\n}', 'application/problem+json'))).toBe('{"a":[1,2]}');
    expect(responseText(answer('[1, 2]', 'text/plain'))).toBe('[1,2]');
    expect(responseText(answer('{ not json', 'application/json'))).toBe('{ not json');
    expect(responseText(answer('plain words', 'text/plain'))).toBe('plain words');
    expect(responseText(answer(Buffer.alloc(10), 'application/pdf'))).toBe('(binary content of type application/pdf, 10 bytes, not shown)');
    expect(responseText(answer('', 'text/plain', 204))).toBe('(no content, HTTP 204)');
    expect(capOutput('abcdef', 4)).toBe('abcd… [cut: the answer has 6 characters, the first 4 are shown]');
  });
});

describe('schemas copied from OpenAPI documents', () => {
  it('turn OpenAPI 3.0 into JSON Schema and drop what only documents', () => {
    const copied = copySchema(
      { type: 'integer', nullable: true, minimum: 0, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false, example: 3, 'x-internal': 1, properties: { example: { type: 'string' } } },
      new SchemaBudget('op'),
    );
    expect(copied).toEqual({ type: ['integer', 'null'], exclusiveMinimum: 0, maximum: 9, properties: { example: { type: 'string' } } });
  });
});

describe('templates', () => {
  it('are all valid: each makes an API tool whose settings pass the rules of a saved tool', () => {
    const templates = toolTemplates();
    expect(templates.length).toBeGreaterThanOrEqual(6);
    for (const template of templates) expect(apiConfigProblems(template.config, new AllowList([]), '/config'), template.id).toEqual([]);
  });

  it('are refused when one is invalid, naming each problem', () => {
    const broken = { ...toolTemplates()[0]!, id: 'broken', config: { ...toolTemplates()[0]!.config, url: 'http://127.0.0.1/x' } };
    expect(() => checkTemplates([broken, { id: 'Bad Id' }])).toThrow(/template broken: \/config\/url .*loopback[\s\S]*template Bad Id/);
  });
});

describe('the API tool', () => {
  const stored = (overrides: Partial<StoredTool> = {}): StoredTool => ({ id: 3, organization_id: 1, kind: 'api', name: 'items', description: 'Items', config: config() as unknown as Record<string, unknown>, secret: null, ...overrides });
  const egressThat = (answer: () => Promise<EgressResponse>): EgressClient => ({ request: answer, stream: () => Promise.reject(new Error('unused')), close: () => undefined });

  it('reports refused addresses, deadlines, sizes and its own faults as outcomes, never by throwing', async () => {
    const cases: [Error, RegExp][] = [
      [new EgressRefused('address', 'http://10.0.0.1/x', 'the host resolves to a private address'), /^The call was refused: Refused to fetch http:\/\/10\.0\.0\.1\/x/],
      [new EgressFailed('timeout', 'No complete answer'), /^The API did not answer within 1000 ms$/],
      [new EgressFailed('too_large', 'The answer of x is larger than the limit of 1024 bytes'), /larger than the limit of 1024 bytes/],
      [new Error('socket hang up'), /^The call failed: socket hang up$/],
    ];
    for (const [error, output] of cases) {
      const tool = createApiTool(stored(), { egress: egressThat(() => Promise.reject(error)), maxOutputCharacters: 100 });
      const outcome = await tool.run({ id: '1' }, context());
      expect(outcome.status).toBe('error');
      expect(outcome.output).toMatch(output);
    }
    const invalid = await createApiTool(stored(), { egress: egressThat(() => Promise.reject(new Error('not called'))), maxOutputCharacters: 100 }).run({ id: 5 } as never, context());
    expect(invalid).toEqual({ status: 'error', output: "The arguments do not match the tool's parameters: id must be string" });
  });

  it('is timed by the clock the test run is given', async () => {
    let now = 1_000;
    const tool = createApiTool(stored(), {
      egress: egressThat(async () => {
        now += 42;
        return { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"ok":1}'), url: 'https://api.example.com/v1/items/1' };
      }),
      maxOutputCharacters: 100,
    });
    const result = await runToolOnce(tool, { id: '1' }, actor, { timeoutMs: 1000, maxResponseBytes: 1024, timer: () => now });
    expect(result).toEqual({
      status: 'ok',
      http_status: 200,
      latency_ms: 42,
      request: { method: 'GET', url: 'https://api.example.com/v1/items/1', headers: {}, body: null },
      output: '{"ok":1}',
      error: null,
    });
  });
});

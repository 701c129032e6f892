// OpenTelemetry tracing through the real app, against a fake OTLP/HTTP collector on loopback: a
// request's server span reaches the collector, named by its route pattern, in the caller's trace, with
// what the request did as its children: statements on either database, the model call with its
// tokens, and the HTTP request to the (fake) provider.
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startTestApp } from './support/app.js';
import { agentWith, askStreaming, createModelConfiguration } from './support/ask.js';
import { createCorpus, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createUser } from './support/factories.js';
import { FAKE_LLM_KEY, startFakeOpenAi, type FakeLlmServer } from './support/fake-openai.js';
import { request } from './support/http.js';
import { startListener, type Listener } from './support/listeners.js';

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: number | string };
}
interface OtlpSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: OtlpAttribute[];
}
interface OtlpExport {
  resourceSpans: { resource: { attributes: OtlpAttribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

interface ReceivedExport {
  path: string;
  headers: Record<string, unknown>;
  body: OtlpExport;
}

/**
 * A collector that hands over the first export it receives, with its headers, and keeps every span
 * received (an app's closing sends those still queued, and waits for the collector's answer).
 */
async function startCollector(): Promise<{ listener: Listener; firstExport: Promise<ReceivedExport>; spans: OtlpSpan[] }> {
  let deliver!: (received: ReceivedExport) => void;
  const firstExport = new Promise<ReceivedExport>((resolve) => (deliver = resolve));
  const spans: OtlpSpan[] = [];
  const listener = await startListener((req, res, body) => {
    const received = { path: req.url ?? '', headers: req.headers, body: JSON.parse(body.toString('utf8')) as OtlpExport };
    spans.push(...received.body.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans)));
    deliver(received);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  return { listener, firstExport, spans };
}

const attribute = (attributes: OtlpAttribute[], key: string) => {
  const value = attributes.find((candidate) => candidate.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

describe('tracing', () => {
  let collector: Listener | undefined;
  afterEach(async () => collector?.close());

  it('sends a server span per request to the OTLP collector, in the caller’s trace', async () => {
    const { listener, firstExport } = await startCollector();
    collector = listener;
    const t = await startTestApp('sqlite', { OTEL_EXPORTER_OTLP_ENDPOINT: listener.origin, OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=s3cret%21' });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const reply = await request(t.app, 'GET', '/health', undefined, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    expect(reply.status).toBe(200);
    // Closing flushes the spans still queued; the collector's request is awaited, not slept for.
    await t.close();
    const received = await firstExport;

    expect(received.path).toBe('/v1/traces');
    expect(received.headers['x-collector-key']).toBe('s3cret!');
    const resource = received.body.resourceSpans[0]!;
    expect(attribute(resource.resource.attributes, 'service.name')).toBe('agent-platform');
    const spans = resource.scopeSpans.flatMap((scope) => scope.spans);
    const span = spans.find((candidate) => candidate.name === 'GET /health');
    expect(span, JSON.stringify(spans.map((candidate) => candidate.name))).toBeDefined();
    expect(span!.traceId).toBe(traceId);
    expect(span!.parentSpanId).toBe('00f067aa0ba902b7');
    expect(attribute(span!.attributes, 'http.route')).toBe('/health');
    expect(attribute(span!.attributes, 'http.response.status_code')).toBe(200);
  });
});

describe.each(databaseKinds)('a trace of asking an agent (%s)', (kind) => {
  let collector: Listener | undefined;
  let fake: FakeLlmServer | undefined;
  afterEach(async () => {
    await collector?.close();
    await fake?.close();
  });

  it('holds the statements, the model call with its tokens and the request to the provider, and no prompt or key', async () => {
    const started = await startCollector();
    collector = started.listener;
    fake = await startFakeOpenAi();
    fake.answer = 'The refund window is thirty days.';
    fake.tokens = { prompt: 11, completion: 7 };
    const t = await startTestApp(kind, { OTEL_EXPORTER_OTLP_ENDPOINT: started.listener.origin, EGRESS_ALLOWED_HOSTS: fake.host });
    const owner = await createUser(t.app, { role: 'owner' });
    const configuration = await createModelConfiguration(owner, fake);
    const agent = await agentWith(owner, [], { llm_configuration_id: configuration.id });
    const question = 'What is the refund window for the secret project Nightingale?';
    const reply = await owner.api.post(`/api/v2/agents/${agent.id}/responses`, { query: question });
    expect(reply.status).toBe(201);
    const streamed = await askStreaming(t.app, owner, agent.id, { query: question });
    expect(streamed.status).toBe(200);
    await t.close();

    const { spans } = started;
    const names = JSON.stringify(spans.map((span) => span.name));
    const asks = spans.filter((span) => span.name === 'POST /api/v2/agents/:agent_id/responses');
    expect(asks, names).toHaveLength(2);
    const childrenOf = (parent: OtlpSpan) => spans.filter((span) => span.parentSpanId === parent.spanId && span.traceId === parent.traceId);
    // The answer sent as it is written has its model call in its trace too.
    for (const ask of asks) expect(childrenOf(ask).map((span) => span.name), names).toContain('chat fake-model');
    const ask = asks.find((span) => attribute(span.attributes, 'http.response.status_code') === 201);
    const children = childrenOf(ask!);

    const statement = kind === 'postgres' ? /^pg\.query:(SELECT|INSERT|UPDATE)/ : /^sqlite\.query:(SELECT|INSERT|UPDATE)/;
    const statements = children.filter((span) => statement.test(span.name));
    expect(statements.length, names).toBeGreaterThan(0);
    expect(attribute(statements[0]!.attributes, 'db.system.name')).toBe(kind === 'postgres' ? 'postgresql' : 'sqlite');
    expect(attribute(statements[0]!.attributes, 'db.query.text')).toMatch(/^\s*(select|insert|update|with)/i);

    const modelCall = children.find((span) => span.name === 'chat fake-model');
    expect(modelCall, names).toBeDefined();
    expect(attribute(modelCall!.attributes, 'gen_ai.provider.name')).toBe('openai');
    expect(attribute(modelCall!.attributes, 'gen_ai.request.model')).toBe('fake-model');
    expect(attribute(modelCall!.attributes, 'gen_ai.usage.input_tokens')).toBe(11);
    expect(attribute(modelCall!.attributes, 'gen_ai.usage.output_tokens')).toBe(7);

    const toProvider = childrenOf(modelCall!).find((span) => span.name === 'POST');
    expect(toProvider, names).toBeDefined();
    expect(attribute(toProvider!.attributes, 'url.full')).toBe(`${fake.baseUrl}/chat/completions`);
    expect(attribute(toProvider!.attributes, 'http.response.status_code')).toBe(200);

    // Neither the question, the answer nor the provider's key is in any span.
    const everything = JSON.stringify(spans);
    for (const secret of ['Nightingale', 'thirty days', FAKE_LLM_KEY]) expect(everything).not.toContain(secret);
  });
});

describe.each(databaseKinds)('a trace of a job (%s)', (kind) => {
  let collector: Listener | undefined;
  afterEach(async () => collector?.close());

  it('is a trace of its own for each job the worker runs, with the job’s statements as children', async () => {
    const started = await startCollector();
    collector = started.listener;
    const t = await startTestApp(kind, { OTEL_EXPORTER_OTLP_ENDPOINT: started.listener.origin });
    const owner = await createUser(t.app, { role: 'owner' });
    const corpus = await createCorpus(owner);
    const document = await uploadText(owner, corpus.id, 'The Nightingale handbook: refunds within thirty days.');
    const [state] = await waitForProcessing(owner, corpus.id, [document.id]);
    expect(state).toMatchObject({ step: 'indexed', is_failed: false });
    await t.close();

    const { spans } = started;
    const names = JSON.stringify(spans.map((span) => span.name));
    const jobs = spans.filter((span) => span.name === 'job document.process');
    expect(jobs.length, names).toBeGreaterThan(0);
    const job = jobs[0]!;
    expect(job.parentSpanId ?? '', 'a job starts a trace of its own').toBe('');
    expect(attribute(job.attributes, 'job.name')).toBe('document.process');
    expect(attribute(job.attributes, 'job.attempts')).toBeGreaterThanOrEqual(0);
    const statement = kind === 'postgres' ? /^pg\.query:/ : /^sqlite\.query:/;
    const children = spans.filter((span) => span.traceId === job.traceId && span.parentSpanId === job.spanId);
    expect(children.some((span) => statement.test(span.name)), names).toBe(true);
    // The document's text is in no span.
    expect(JSON.stringify(spans)).not.toContain('Nightingale');
  });
});

describe('tracing settings', () => {
  it('are off unless an OTLP endpoint is named, and off when the SDK is disabled', () => {
    expect(loadConfig({}).observability.tracing).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }).observability.tracing).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }).observability.tracing).toBeUndefined();
  });

  it('post to /v1/traces under the general endpoint, or to the traces endpoint as given', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).observability.tracing).toEqual({
      tracesUrl: 'http://collector:4318/v1/traces',
      serviceName: 'agent-platform',
      headers: {},
    });
    const tracing = loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://otlp.example.com/traces', OTEL_SERVICE_NAME: 'api-eu' }).observability.tracing;
    expect(tracing).toMatchObject({ tracesUrl: 'https://otlp.example.com/traces', serviceName: 'api-eu' });
  });

  it('refuse gRPC and malformed endpoints with the other problems', () => {
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL must be one of[\s\S]*OTEL_EXPORTER_OTLP_ENDPOINT must be an http/,
    );
  });
});

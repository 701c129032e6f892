// OpenTelemetry tracing through the real app, against a fake OTLP/HTTP collector on loopback: a
// request's server span reaches the collector, named by its route pattern, in the caller's trace.
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startTestApp } from './support/app.js';
import { request } from './support/http.js';
import { startListener, type Listener } from './support/listeners.js';

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: number | string };
}
interface OtlpSpan {
  name: string;
  traceId: string;
  parentSpanId?: string;
  attributes: OtlpAttribute[];
}
interface OtlpExport {
  resourceSpans: { resource: { attributes: OtlpAttribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

/** A collector that hands over the first export it receives, with its headers. */
async function startCollector(): Promise<{ listener: Listener; firstExport: Promise<{ path: string; headers: Record<string, unknown>; body: OtlpExport }> }> {
  let deliver!: (received: { path: string; headers: Record<string, unknown>; body: OtlpExport }) => void;
  const firstExport = new Promise<{ path: string; headers: Record<string, unknown>; body: OtlpExport }>((resolve) => (deliver = resolve));
  const listener = await startListener((req, res, body) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    deliver({ path: req.url ?? '', headers: req.headers, body: JSON.parse(body.toString('utf8')) as OtlpExport });
  });
  return { listener, firstExport };
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

// The only module that reads process.env. Every setting is parsed and checked here, once, at start;
// a bad configuration stops the server with the whole list of problems rather than the first one.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllowedHost } from './net/allowed-hosts.js';
import ipaddr from 'ipaddr.js';
import { withEnvFile } from './env-file.js';
import { parseMcpHost } from './modules/mcp/mcp-hosts.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
/** pretty: one readable line per event, for a terminal; json: one JSON object per line, for collectors. */
export type LogFormat = 'pretty' | 'json';
/** Fastify's trustProxy: false, true (any proxy), a hop count, or the proxies' addresses and CIDRs. */
export type TrustProxy = boolean | number | string[];

export interface Limits {
  jsonBodyBytes: number;
  uploadFileBytes: number;
  uploadFiles: number;
  pageSizeMax: number;
  logoBytes: number;
  /** The largest agent image kept (an image model's answer included). */
  imageBytes: number;
  requestsPerMinute: number;
  loginsPerMinute: number;
  toolTimeoutMs: number;
  /** Largest body a tool reads from the service it calls. */
  toolResponseBytes: number;
  /** Most characters of one tool call's output the model is given. */
  toolOutputCharacters: number;
  /** Rounds of tool calls in one answer; the model then answers with what it has. */
  toolSteps: number;
  /** Most an answer may spend (model tokens and priced tool calls), in USD, before its tools are taken away. */
  answerBudgetUsd: number;
  llmTimeoutMs: number;
}

/** Bounds of every outbound request: `createEgressClient(config.egress)` (src/net/egress.ts). */
export interface EgressSettings {
  /** Hosts or host:port the server may reach although they are private or loopback. */
  allowedHosts: string[];
  /** Deadline of one call, redirects and body included; a call may set a shorter one. */
  defaultTimeoutMs: number;
  maxResponseBytes: number;
  maxRedirects: number;
}

/** The image model (an OpenAI-compatible images API); undefined when IMAGE_BASE_URL is unset: agents get generated avatars. */
export interface ImageSettings {
  /** e.g. https://api.openai.com/v1; requests go to `${baseUrl}/images/generations`. */
  baseUrl: string;
  model: string;
  /** Sent as a bearer token; never logged, never returned. */
  apiKey: string | undefined;
  /** The size asked for, e.g. 1024x1024. */
  size: string;
  /** Deadline of one generation. */
  timeoutMs: number;
}

/** The embedding provider (OpenAI-compatible HTTP); undefined when EMBEDDING_BASE_URL is unset. */
export interface EmbeddingSettings {
  /** e.g. https://api.openai.com/v1; requests go to `${baseUrl}/embeddings`. */
  baseUrl: string;
  model: string;
  /** Sent as a bearer token; never logged, never returned. */
  apiKey: string | undefined;
  /** Expected size of each vector; undefined = learned from the first answer, then fixed. */
  dimensions: number | undefined;
  /** Texts sent in one request. */
  batchSize: number;
  /** Deadline of one request to the provider, its retries and their waits included. */
  timeoutMs: number;
  /** Retries of a request that met a 429, a 5xx, a timeout or a lost connection. */
  maxRetries: number;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** undefined = the embedded SQLite file in dataDir */
  databaseUrl: string | undefined;
  databasePoolMax: number;
  /** Statements run on every document or request are prepared on each PostgreSQL connection. */
  databasePreparedStatements: boolean;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  logLevel: LogLevel;
  logFormat: LogFormat;
  /** Which X-Forwarded-For hops to believe, so that request.ip is the client's behind a proxy. */
  trustProxy: TrustProxy;
  /** Origins browsers may call the API from ('*' = any); empty = no CORS headers at all. */
  corsOrigins: string[];
  /** Names /mcp answers to besides localhost and PUBLIC_BASE_URL's host (src/modules/mcp/mcp-hosts.ts). */
  mcpAllowedHosts: string[];
  /** undefined = generated on first start and kept in dataDir */
  secretKey: string | undefined;
  /** Former secret keys (SECRET_KEY_PREVIOUS) that stored secrets may still be sealed with; see src/secrets/. */
  secretKeyPrevious: string[];
  sessionTtlHours: number;
  /** Lifetime of the one-time token a new user sets a password with */
  passwordTokenTtlHours: number;
  /** scrypt cost parameter (N = 2^passwordHashCost) */
  passwordHashCost: number;
  limits: Limits;
  worker: WorkerConfig;
  egress: EgressSettings;
  /** Commands of local (stdio) MCP servers an organization may add as tools, each exactly as a tool names it; empty: none (MCP_STDIO_COMMANDS). */
  mcpStdioCommands: string[];
  embedding: EmbeddingSettings | undefined;
  image: ImageSettings | undefined;
  connectors: ConnectorSettings;
  emailIndexing: EmailIndexingSettings;
  observability: ObservabilitySettings;
  /** Where the rate limits are counted when several processes share a deployment. */
  rateLimitStore: RateLimitStoreSettings;
  /** How long a stopping process waits for requests, answers and jobs in flight before it cuts them. */
  shutdownGraceMs: number;
  /** The built web console (index.html, assets/); served when it holds an index.html at start. */
  consoleDir: string;
  /** Every answer checked against its route's response schema, a mismatch a 500 (src/http/response-schema-check.ts); on in tests. */
  responseSchemaCheck: boolean;
}

/** Where document-library connectors reach Microsoft: the identity platform and Graph (tests point both at a loopback fake). */
export interface ConnectorSettings {
  loginUrl: URL;
  graphUrl: URL;
}

/** One mail provider's OAuth 2 application and endpoints (the real ones by default; overridable for national clouds and tests). */
export interface MailProviderSettings {
  /** undefined: the provider is not set up, and authorizing with it is a 400. */
  clientId: string | undefined;
  clientSecret: string | undefined;
  authorizeUrl: URL;
  tokenUrl: URL;
  /** Graph (https://graph.microsoft.com/v1.0) or the Gmail API (https://gmail.googleapis.com/gmail/v1). */
  apiUrl: URL;
}

/** E-mail indexing (docs/email-indexing.md): the redirect URI's base and each provider's application. */
export interface EmailIndexingSettings {
  /** The server's public address; the redirect URI is <publicBaseUrl>/api/email-indexing/callback/. */
  publicBaseUrl: URL;
  microsoft: MailProviderSettings;
  google: MailProviderSettings;
}

/** Prometheus metrics and OpenTelemetry tracing (src/observability/). */
export interface ObservabilitySettings {
  /** Serve Prometheus metrics at GET /metrics. */
  metricsEnabled: boolean;
  /** When set, /metrics requires `Authorization: Bearer <token>`; when unset, it is public. */
  metricsToken: string | undefined;
  /** undefined = tracing off (the default). */
  tracing: TracingSettings | undefined;
}

/** From the standard OTEL_* variables; spans go to an OTLP/HTTP collector. */
export interface TracingSettings {
  /** Full URL spans are posted to, e.g. http://collector:4318/v1/traces. */
  tracesUrl: string;
  serviceName: string;
  /** Sent with every export (OTEL_EXPORTER_OTLP_HEADERS / OTEL_EXPORTER_OTLP_TRACES_HEADERS). */
  headers: Record<string, string>;
}

/** Redis when REDIS_URL is set; otherwise the database on PostgreSQL, the process's memory on SQLite. */
export interface RateLimitStoreSettings {
  redisUrl: string | undefined;
  /** Prefix of every key this deployment writes in Redis. */
  redisKeyPrefix: string;
}

export interface WorkerConfig {
  /** Run a worker inside the server process (the default; turn off for API-only processes on PostgreSQL). */
  inProcess: boolean;
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  backoffMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Record<string, string | undefined>;

/** Each setting: its variable, its default, and a parser that returns a value or a problem. */
class EnvReader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  string(name: string, fallback?: string): string | undefined {
    const raw = this.env[name];
    return raw === undefined || raw === '' ? fallback : raw;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  decimal(name: string, fallback: number, min: number, max: number): number {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^\d+(\.\d+)?$/.test(raw.trim()) || value < min || value > max) {
      this.problems.push(`${name} must be a number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  /** A comma-separated list; each entry checked by `parse`, which throws with the problem. */
  list(name: string, parse: (entry: string) => unknown): string[] {
    const entries = (this.string(name) ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
    for (const entry of entries) {
      try {
        parse(entry);
      } catch (error) {
        this.problems.push(`${name}: ${(error as Error).message}`);
      }
    }
    return entries;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  }
}

function parsePreviousSecretKey(entry: string): void {
  if (entry.length < 32) throw new Error('each former key must be at least 32 characters long');
}

/** `false` (default), `true`, a hop count, or comma-separated proxy addresses and CIDRs. */
function readTrustProxy(read: EnvReader): TrustProxy {
  const raw = read.string('TRUST_PROXY');
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return read.integer('TRUST_PROXY', 0, 1, 100);
  return read.list('TRUST_PROXY', parseProxyAddress);
}

function parseProxyAddress(entry: string): void {
  if (entry.includes('/') ? !isCidr(entry) : !ipaddr.isValid(entry)) {
    throw new Error(`"${entry}" is not true, false, a hop count, an IP address or a CIDR range`);
  }
}

function isCidr(entry: string): boolean {
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

/** `*`, or an origin as a browser sends it: scheme, host and optional port, nothing more. */
function parseCorsOrigin(entry: string): void {
  if (entry === '*') return;
  let url: URL | undefined;
  try {
    url = new URL(entry);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== entry) {
    throw new Error(`"${entry}" is not an origin such as https://app.example.com (scheme, host, optional port; no path or trailing slash)`);
  }
}

const MiB = 1024 * 1024;
/**
 * SHUTDOWN_GRACE_MS by default: one model call's limit and this margin, so that an answer streaming
 * when the stop came finishes (and is recorded) rather than being cut in the middle of a sentence.
 */
const SHUTDOWN_MARGIN_MS = 15_000;
/**
 * Where `npm run build` puts the console: dist/console/ of this checkout. This file is src/config.ts
 * under tsx and dist/config.js once built, one folder below the checkout either way.
 */
const BUILT_CONSOLE_DIR = fileURLToPath(new URL('../dist/console', import.meta.url));
/** The most sqlite-vec's vec0 tables hold (pgvector holds more, but one limit serves both). */
export const MAX_EMBEDDING_DIMENSIONS = 8192;

/**
 * The environment (by default the process's, over the `.env` file of the working folder) read into a
 * checked Config. `stdoutIsTerminal` picks the default LOG_FORMAT.
 */
export function loadConfig(env: Env = withEnvFile(process.env), stdoutIsTerminal = process.stdout.isTTY === true): Config {
  const read = new EnvReader(env);
  const databaseUrl = read.string('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    read.problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL, or unset for the embedded SQLite database');
  }
  const adminEmail = read.string('ADMIN_EMAIL');
  if (adminEmail !== undefined && !/^[^@\s]+@[^@\s]+$/.test(adminEmail)) {
    read.problems.push(`ADMIN_EMAIL must be an e-mail address (got "${adminEmail}")`);
  }
  const adminPassword = read.string('ADMIN_PASSWORD');
  if (adminPassword !== undefined && adminPassword.length < 12) {
    read.problems.push('ADMIN_PASSWORD must be at least 12 characters long');
  }
  const secretKey = read.string('SECRET_KEY');
  if (secretKey !== undefined && secretKey.length < 32) {
    read.problems.push('SECRET_KEY must be at least 32 characters long');
  }
  const llmTimeoutMs = read.integer('LIMIT_LLM_TIMEOUT_MS', 120_000, 100, 3_600_000);
  const config: Config = {
    port: read.integer('PORT', 8080, 0, 65535),
    host: read.string('HOST', '127.0.0.1')!,
    dataDir: resolve(read.string('DATA_DIR', './data')!),
    databaseUrl,
    databasePoolMax: read.integer('DATABASE_POOL_MAX', 10, 1, 1000),
    databasePreparedStatements: read.oneOf('DATABASE_PREPARED_STATEMENTS', ['true', 'false'], 'true') === 'true',
    adminEmail,
    adminPassword,
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: read.oneOf('LOG_FORMAT', ['pretty', 'json'], stdoutIsTerminal ? 'pretty' : 'json'),
    trustProxy: readTrustProxy(read),
    corsOrigins: read.list('CORS_ORIGINS', parseCorsOrigin),
    mcpAllowedHosts: read.list('MCP_ALLOWED_HOSTS', parseMcpHost),
    secretKey,
    secretKeyPrevious: read.list('SECRET_KEY_PREVIOUS', parsePreviousSecretKey),
    sessionTtlHours: read.integer('SESSION_TTL_HOURS', 24, 1, 24 * 365),
    passwordTokenTtlHours: read.integer('PASSWORD_TOKEN_TTL_HOURS', 72, 1, 24 * 30),
    passwordHashCost: read.integer('PASSWORD_HASH_COST', 15, 10, 20),
    limits: {
      jsonBodyBytes: read.integer('LIMIT_JSON_BODY_BYTES', 1 * MiB, 1024, 1024 * MiB),
      uploadFileBytes: read.integer('LIMIT_UPLOAD_FILE_BYTES', 50 * MiB, 1024, 10 * 1024 * MiB),
      uploadFiles: read.integer('LIMIT_UPLOAD_FILES', 20, 1, 1000),
      pageSizeMax: read.integer('LIMIT_PAGE_SIZE', 100, 1, 10_000),
      logoBytes: read.integer('LIMIT_LOGO_BYTES', 2 * MiB, 1024, 50 * MiB),
      imageBytes: read.integer('LIMIT_IMAGE_BYTES', 4 * MiB, 1024, 50 * MiB),
      requestsPerMinute: read.integer('LIMIT_REQUESTS_PER_MINUTE', 600, 1, 10_000_000),
      loginsPerMinute: read.integer('LIMIT_LOGINS_PER_MINUTE', 20, 1, 10_000_000),
      toolTimeoutMs: read.integer('LIMIT_TOOL_TIMEOUT_MS', 15_000, 100, 600_000),
      toolResponseBytes: read.integer('LIMIT_TOOL_RESPONSE_BYTES', 1 * MiB, 1024, 100 * MiB),
      toolOutputCharacters: read.integer('LIMIT_TOOL_OUTPUT_CHARACTERS', 16_000, 100, 1_000_000),
      toolSteps: read.integer('LIMIT_TOOL_STEPS', 5, 1, 50),
      answerBudgetUsd: read.decimal('LIMIT_ANSWER_COST_USD', 1, 0, 1000),
      llmTimeoutMs,
    },
    worker: {
      inProcess: read.oneOf('WORKER_IN_PROCESS', ['true', 'false'], 'true') === 'true',
      concurrency: read.integer('WORKER_CONCURRENCY', 4, 1, 256),
      leaseMs: read.integer('WORKER_LEASE_SECONDS', 30, 1, 3600) * 1000,
      pollMs: read.integer('WORKER_POLL_MS', 1000, 10, 60_000),
      backoffMs: read.integer('WORKER_RETRY_BACKOFF_MS', 2000, 1, 3_600_000),
    },
    egress: {
      allowedHosts: read.list('EGRESS_ALLOWED_HOSTS', parseAllowedHost),
      defaultTimeoutMs: read.integer('EGRESS_TIMEOUT_MS', 30_000, 100, 3_600_000),
      maxResponseBytes: read.integer('EGRESS_MAX_RESPONSE_BYTES', 50 * MiB, 1024, 10 * 1024 * MiB),
      maxRedirects: read.integer('EGRESS_MAX_REDIRECTS', 5, 0, 20),
    },
    mcpStdioCommands: read.list('MCP_STDIO_COMMANDS', () => undefined),
    embedding: readEmbedding(read),
    image: readImage(read),
    connectors: {
      loginUrl: readHttpUrl(read, 'CONNECTOR_LOGIN_URL', 'https://login.microsoftonline.com'),
      graphUrl: readHttpUrl(read, 'CONNECTOR_GRAPH_URL', 'https://graph.microsoft.com/v1.0'),
    },
    emailIndexing: {
      publicBaseUrl: readHttpUrl(read, 'PUBLIC_BASE_URL', 'http://localhost:8080'),
      microsoft: {
        clientId: read.string('EMAIL_MICROSOFT_CLIENT_ID'),
        clientSecret: read.string('EMAIL_MICROSOFT_CLIENT_SECRET'),
        authorizeUrl: readHttpUrl(read, 'EMAIL_MICROSOFT_AUTHORIZE_URL', 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize'),
        tokenUrl: readHttpUrl(read, 'EMAIL_MICROSOFT_TOKEN_URL', 'https://login.microsoftonline.com/common/oauth2/v2.0/token'),
        apiUrl: readHttpUrl(read, 'EMAIL_MICROSOFT_GRAPH_URL', 'https://graph.microsoft.com/v1.0'),
      },
      google: {
        clientId: read.string('EMAIL_GOOGLE_CLIENT_ID'),
        clientSecret: read.string('EMAIL_GOOGLE_CLIENT_SECRET'),
        authorizeUrl: readHttpUrl(read, 'EMAIL_GOOGLE_AUTHORIZE_URL', 'https://accounts.google.com/o/oauth2/v2/auth'),
        tokenUrl: readHttpUrl(read, 'EMAIL_GOOGLE_TOKEN_URL', 'https://oauth2.googleapis.com/token'),
        apiUrl: readHttpUrl(read, 'EMAIL_GOOGLE_GMAIL_URL', 'https://gmail.googleapis.com/gmail/v1'),
      },
    },
    observability: {
      metricsEnabled: read.oneOf('METRICS_ENABLED', ['true', 'false'], 'true') === 'true',
      metricsToken: read.string('METRICS_TOKEN'),
      tracing: readTracing(read),
    },
    rateLimitStore: readRateLimitStore(read),
    shutdownGraceMs: read.integer('SHUTDOWN_GRACE_MS', llmTimeoutMs + SHUTDOWN_MARGIN_MS, 0, 3_600_000),
    consoleDir: resolve(read.string('CONSOLE_DIR') ?? BUILT_CONSOLE_DIR),
    responseSchemaCheck: read.oneOf('RESPONSE_SCHEMA_CHECK', ['true', 'false'], 'false') === 'true',
  };
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}

/** The embedding provider, if EMBEDDING_BASE_URL names one; the other EMBEDDING_ variables then apply. */
function readEmbedding(read: EnvReader): EmbeddingSettings | undefined {
  const baseUrl = read.string('EMBEDDING_BASE_URL');
  const settings = {
    model: read.string('EMBEDDING_MODEL'),
    apiKey: read.string('EMBEDDING_API_KEY'),
    dimensions: read.string('EMBEDDING_DIMENSIONS') === undefined ? undefined : read.integer('EMBEDDING_DIMENSIONS', 0, 1, MAX_EMBEDDING_DIMENSIONS),
    batchSize: read.integer('EMBEDDING_BATCH_SIZE', 64, 1, 2048),
    timeoutMs: read.integer('EMBEDDING_TIMEOUT_MS', 30_000, 100, 3_600_000),
    maxRetries: read.integer('EMBEDDING_MAX_RETRIES', 3, 0, 10),
  };
  if (baseUrl === undefined) return undefined;
  checkProviderUrl(read, 'EMBEDDING', baseUrl);
  if (settings.model === undefined) read.problems.push('EMBEDDING_MODEL must name the embedding model when EMBEDDING_BASE_URL is set');
  return { ...settings, baseUrl: baseUrl.replace(/\/+$/, ''), model: settings.model ?? '' };
}

/** A provider's <PREFIX>_BASE_URL: http(s), with no credentials, query or fragment. */
function checkProviderUrl(read: EnvReader, prefix: string, baseUrl: string): void {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    read.problems.push(`${prefix}_BASE_URL must be an http:// or https:// URL (e.g. https://api.openai.com/v1)`);
  } else if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    // Credentials in the URL would reach logs and error messages: the key belongs in <PREFIX>_API_KEY.
    read.problems.push(`${prefix}_BASE_URL must not carry credentials, a query or a fragment; put the key in ${prefix}_API_KEY`);
  }
}

/** The image model, if IMAGE_BASE_URL names one; the other IMAGE_ variables then apply. */
function readImage(read: EnvReader): ImageSettings | undefined {
  const baseUrl = read.string('IMAGE_BASE_URL');
  const settings = {
    model: read.string('IMAGE_MODEL') ?? 'gpt-image-1',
    apiKey: read.string('IMAGE_API_KEY'),
    size: read.string('IMAGE_SIZE') ?? '1024x1024',
    timeoutMs: read.integer('IMAGE_TIMEOUT_MS', 120_000, 100, 3_600_000),
  };
  if (baseUrl === undefined) return undefined;
  checkProviderUrl(read, 'IMAGE', baseUrl);
  if (!/^\d{2,5}x\d{2,5}$/.test(settings.size)) read.problems.push('IMAGE_SIZE must be WIDTHxHEIGHT, e.g. 1024x1024');
  return { ...settings, baseUrl: baseUrl.replace(/\/+$/, '') };
}

/**
 * Tracing follows the OpenTelemetry SDK's own variables, so that a collector set up for other
 * services works unchanged: on when an OTLP endpoint is named, off when OTEL_SDK_DISABLED=true or
 * OTEL_TRACES_EXPORTER=none. Only OTLP over HTTP is spoken.
 */
function readTracing(read: EnvReader): TracingSettings | undefined {
  const disabled = read.oneOf('OTEL_SDK_DISABLED', ['true', 'false'], 'false') === 'true';
  const exporter = read.oneOf('OTEL_TRACES_EXPORTER', ['otlp', 'none'], 'otlp');
  // Spans are posted as OTLP/HTTP with JSON bodies, which collectors take under either HTTP protocol;
  // gRPC is refused here rather than sending HTTP to a gRPC port.
  for (const name of ['OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL']) read.oneOf(name, ['http/protobuf', 'http/json'], 'http/protobuf');
  const serviceName = read.string('OTEL_SERVICE_NAME', 'agent-platform')!;
  const headers = { ...readOtlpHeaders(read, 'OTEL_EXPORTER_OTLP_HEADERS'), ...readOtlpHeaders(read, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS') };
  const tracesEndpoint = read.string('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const endpoint = read.string('OTEL_EXPORTER_OTLP_ENDPOINT');
  // The signal's own endpoint is used as given; the general one gets /v1/traces appended (the OTLP rule).
  const tracesUrl = tracesEndpoint ?? (endpoint === undefined ? undefined : `${endpoint.replace(/\/+$/, '')}/v1/traces`);
  if (disabled || exporter === 'none' || tracesUrl === undefined) return undefined;
  if (!/^https?:\/\/[^/]/.test(tracesUrl)) {
    read.problems.push(`${tracesEndpoint === undefined ? 'OTEL_EXPORTER_OTLP_ENDPOINT' : 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'} must be an http:// or https:// URL`);
  }
  return { tracesUrl, serviceName, headers };
}

/** An http(s) URL setting; a problem (and the fallback) when it is not one. */
function readHttpUrl(read: EnvReader, name: string, fallback: string): URL {
  const value = read.string(name, fallback)!;
  if (!/^https?:\/\/[^/]/.test(value) || !URL.canParse(value)) {
    read.problems.push(`${name} must be an http:// or https:// URL`);
    return new URL(fallback);
  }
  return new URL(value.replace(/\/+$/, ''));
}

/** `key1=value1,key2=value2`, values URL-encoded (W3C Baggage format, as the OTLP exporter reads it). */
function readOtlpHeaders(read: EnvReader, name: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (read.string(name) ?? '').split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    if (at <= 0) {
      read.problems.push(`${name} must be a list of key=value pairs separated by commas`);
      continue;
    }
    try {
      headers[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      read.problems.push(`${name}: the value of ${pair.slice(0, at).trim()} is not valid URL encoding`);
    }
  }
  return headers;
}

function readRateLimitStore(read: EnvReader): RateLimitStoreSettings {
  const redisUrl = read.string('REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) read.problems.push('REDIS_URL must be a redis:// or rediss:// URL');
  return { redisUrl, redisKeyPrefix: read.string('REDIS_KEY_PREFIX', 'agent-platform:')! };
}

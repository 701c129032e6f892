// A tool's settings as the form holds them (text as typed, choices) and as the API takes them
// (`config`): read from a tool for editing, and made back into its config, with the problems the API
// would refuse said before anything is sent. Header values the API read back as **** are sent back
// as **** (the server keeps the stored value); the secret is write-only and kept when left empty.
import type { Tool, ToolKind } from './tools-api';

export type Settings = Record<string, string | boolean | string[]>;

/** A tool's config, or what is wrong with the settings typed. */
export type Made = { config: Record<string, unknown> } | { problem: string };

const EMPTY_PARAMETERS = JSON.stringify({ type: 'object', properties: {}, required: [] }, null, 2);

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

function headerLines(headers: unknown): string {
  if (headers === null || typeof headers !== 'object') return '';
  return Object.entries(headers as Record<string, string>)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

/** "Name: value" lines as headers; a line without a colon is a problem. */
function headersOf(lines: string): Record<string, string> | string {
  const headers: Record<string, string> = {};
  for (const line of lines.split('\n').map((entry) => entry.trim())) {
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return `Header "${line}" needs a name, a colon and a value`;
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function jsonOf(value: string, what: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw new Error(`${what} is not valid JSON`);
  }
}

/** A whole number between bounds, or the problem. */
function integerOf(value: string, what: string, min: number, max: number): number | undefined {
  if (value.trim() === '') return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) throw new Error(`${what} must be a whole number from ${min} to ${max}`);
  return number;
}

export function settingsOf(kind: ToolKind, tool?: Tool): Settings {
  const config = (tool?.config ?? {}) as Record<string, any>;
  switch (kind) {
    case 'api': {
      const auth = config.auth ?? { type: 'none' };
      return {
        method: text(config.method ?? 'GET'),
        url: text(config.url),
        parameters: config.parameters === undefined ? EMPTY_PARAMETERS : JSON.stringify(config.parameters, null, 2),
        locations: config.locations === undefined ? '' : JSON.stringify(config.locations, null, 2),
        body: config.body === undefined ? '' : JSON.stringify(config.body, null, 2),
        headers: headerLines(config.headers),
        auth: text(auth.type),
        auth_in: text(auth.in ?? 'header'),
        auth_name: text(auth.name),
        username: text(auth.username),
      };
    }
    case 'mcp':
      return { url: text(config.url), transport: text(config.transport ?? 'auto'), headers: headerLines(config.headers), tools: (config.tools as string[] | undefined) ?? [] };
    case 'web_search':
      return { provider: text(config.provider ?? 'searxng'), base_url: text(config.base_url), max_results: text(config.max_results ?? 5), fetch_pages: config.fetch_pages === true };
    case 'retrieval':
      return { corpus_ids: ((config.corpus_ids as number[] | undefined) ?? []).map(String), passages: text(config.passages ?? 5) };
    case 'attachment':
      return { max_characters: text(config.max_characters ?? 12000) };
  }
}

function apiAuth(settings: Settings): Record<string, unknown> {
  switch (settings.auth) {
    case 'api_key':
      if (String(settings.auth_name).trim() === '') throw new Error('An API key needs the name of the header or query parameter it is sent in');
      return { type: 'api_key', in: settings.auth_in, name: String(settings.auth_name).trim() };
    case 'bearer':
      return { type: 'bearer' };
    case 'basic':
      return { type: 'basic', username: String(settings.username) };
    default:
      return { type: 'none' };
  }
}

function configOf(kind: ToolKind, settings: Settings): Record<string, unknown> {
  const optional = <T>(key: string, value: T | undefined) => (value === undefined || value === '' ? {} : { [key]: value });
  switch (kind) {
    case 'api': {
      if (!/^https?:\/\/\S+$/.test(String(settings.url).trim())) throw new Error('The URL must start with http:// or https://');
      const headers = headersOf(String(settings.headers));
      if (typeof headers === 'string') throw new Error(headers);
      const locations = String(settings.locations).trim();
      const body = String(settings.body).trim();
      return {
        method: settings.method,
        url: String(settings.url).trim(),
        parameters: jsonOf(String(settings.parameters), 'Parameters'),
        ...(locations === '' ? {} : { locations: jsonOf(locations, 'Locations') }),
        ...(body === '' ? {} : { body: jsonOf(body, 'The body template') }),
        ...(Object.keys(headers).length === 0 ? {} : { headers }),
        auth: apiAuth(settings),
      };
    }
    case 'mcp': {
      if (!/^https?:\/\/\S+$/.test(String(settings.url).trim())) throw new Error('The server’s URL must start with http:// or https://');
      const headers = headersOf(String(settings.headers));
      if (typeof headers === 'string') throw new Error(headers);
      const tools = settings.tools as string[];
      return {
        url: String(settings.url).trim(),
        transport: settings.transport,
        ...(Object.keys(headers).length === 0 ? {} : { headers }),
        ...(tools.length === 0 ? {} : { tools }),
      };
    }
    case 'web_search': {
      if (settings.provider === 'searxng' && String(settings.base_url).trim() === '') throw new Error('A SearXNG search needs the address of its instance');
      return {
        provider: settings.provider,
        ...optional('base_url', String(settings.base_url).trim()),
        ...optional('max_results', integerOf(String(settings.max_results), 'Most results', 1, 10)),
        fetch_pages: settings.fetch_pages === true,
      };
    }
    case 'retrieval': {
      const corpora = (settings.corpus_ids as string[]).map(Number);
      if (corpora.length === 0) throw new Error('Choose at least one corpus');
      return { corpus_ids: corpora, ...optional('passages', integerOf(String(settings.passages), 'Passages', 1, 20)) };
    }
    case 'attachment':
      return { ...optional('max_characters', integerOf(String(settings.max_characters), 'Most characters', 100, 200_000)) };
  }
}

export function madeConfig(kind: ToolKind, settings: Settings): Made {
  try {
    return { config: configOf(kind, settings) };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

/** Whether the kind's settings take a secret, and what it is for a person. */
export function secretLabel(kind: ToolKind, settings: Settings): string | null {
  if (kind === 'api') return settings.auth === 'none' ? null : settings.auth === 'basic' ? 'Password' : settings.auth === 'bearer' ? 'Token' : 'API key';
  if (kind === 'web_search') return settings.provider === 'searxng' ? null : 'API key';
  if (kind === 'mcp') return 'Token (sent as Authorization: Bearer)';
  return null;
}

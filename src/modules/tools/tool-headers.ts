// The request headers of a kind that seals them (mcp): their values are as often credentials as not
// (an API key header), so they are sealed at rest with the server's secret key like a tool's secret,
// and the settings keep only their names, each value written `****`. Reads show the names; an update
// that sends `****` back for a header keeps its stored value.
import { BadRequest, type ErrorDetail } from '../../errors.js';
import { resealIfStale } from '../../secrets/reseal.js';
import type { SealedSecret, SecretBox } from '../../secrets/secret-box.js';
import type { ToolRow } from '../../db/schema.js';

export const MASKED_HEADER = '****';

type HeaderColumns = Pick<ToolRow, 'headers_sealed' | 'headers_key_id'>;

export function sealedHeadersOf(row: HeaderColumns): SealedSecret | undefined {
  return row.headers_sealed === null || row.headers_key_id === null ? undefined : { sealed: row.headers_sealed, keyId: row.headers_key_id };
}

/** The stored headers, opened; empty when there are none. Throws when no known key opens them. */
export function openHeaders(secrets: SecretBox, row: HeaderColumns): Record<string, string> {
  const sealed = sealedHeadersOf(row);
  return sealed === undefined ? {} : (JSON.parse(secrets.open(sealed)) as Record<string, string>);
}

export interface SplitHeaders {
  /** The settings as stored and read: each header value written ****. */
  config: Record<string, unknown>;
  /** The header values, opened. */
  headers: Record<string, string>;
}

/**
 * The headers taken out of the settings. A value of **** keeps the stored value of that header (on an
 * update); a header named with **** that has no stored value is a 400.
 */
export function splitHeaders(config: Record<string, unknown>, stored: Record<string, string>, at: string): SplitHeaders {
  const sent = (config.headers ?? undefined) as Record<string, string> | undefined;
  if (sent === undefined) return { config, headers: {} };
  const headers: Record<string, string> = {};
  const problems: ErrorDetail[] = [];
  for (const [name, value] of Object.entries(sent)) {
    if (value !== MASKED_HEADER) headers[name] = value;
    else if (stored[name] !== undefined) headers[name] = stored[name];
    else problems.push({ pointer: `${at}/headers/${name}`, message: `is ${MASKED_HEADER} but no value of it is stored: give the value` });
  }
  if (problems.length > 0) throw new BadRequest(`Header ${Object.keys(sent).find((name) => sent[name] === MASKED_HEADER && stored[name] === undefined)} has no stored value to keep`, problems);
  const masked = Object.fromEntries(Object.keys(headers).map((name) => [name, MASKED_HEADER]));
  return { config: { ...config, headers: masked }, headers };
}

/** The columns of the headers: sealed, or none. */
export function headerColumns(secrets: SecretBox, headers: Record<string, string>): HeaderColumns {
  if (Object.keys(headers).length === 0) return { headers_sealed: null, headers_key_id: null };
  const { sealed, keyId } = secrets.seal(JSON.stringify(headers));
  return { headers_sealed: sealed, headers_key_id: keyId };
}

/** The headers sealed again with the current secret key, when a former key sealed them. */
export function resealedHeaders(secrets: SecretBox, row: HeaderColumns): Partial<HeaderColumns> {
  const fresh = resealIfStale(secrets, sealedHeadersOf(row));
  return fresh === undefined ? {} : { headers_sealed: fresh.sealed, headers_key_id: fresh.keyId };
}

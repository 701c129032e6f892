// A tool's secret at rest: sealed with the server's secret key (src/secrets/), its key id beside it
// so that keys can rotate, and a hint that reads may show. Opened only to build a runnable tool.
import { resealAll, resealIfStale, type ResealOutcome } from '../../secrets/reseal.js';
import { keyHint, type SealedSecret, type SecretBox } from '../../secrets/secret-box.js';
import type { ToolsRepo } from './tools.repo.js';
import type { ToolRow } from '../../db/schema.js';
import { sealedHeadersOf } from './tool-headers.js';

type SecretColumns = Pick<ToolRow, 'secret_sealed' | 'secret_key_id' | 'secret_hint'>;

export function sealedSecretOf(row: Pick<ToolRow, 'secret_sealed' | 'secret_key_id'>): SealedSecret | undefined {
  return row.secret_sealed === null || row.secret_key_id === null ? undefined : { sealed: row.secret_sealed, keyId: row.secret_key_id };
}

/** The columns for what the client sent: undefined keeps the secret, null removes it, a string is sealed. */
export function secretColumns(secrets: SecretBox, secret: string | null | undefined): Partial<SecretColumns> {
  if (secret === undefined) return {};
  if (secret === null) return { secret_sealed: null, secret_key_id: null, secret_hint: null };
  const { sealed, keyId } = secrets.seal(secret);
  return { secret_sealed: sealed, secret_key_id: keyId, secret_hint: keyHint(secret) };
}

/** The secret sealed again with the current secret key, when a former key that this server has sealed it. */
export function resealedSecret(secrets: SecretBox, row: Pick<ToolRow, 'secret_sealed' | 'secret_key_id'>): Partial<SecretColumns> {
  const fresh = resealIfStale(secrets, sealedSecretOf(row));
  return fresh === undefined ? {} : { secret_sealed: fresh.sealed, secret_key_id: fresh.keyId };
}

/** Re-seals every tool secret (and sealed headers) sealed with a former secret key; lists the tools whose values no known key opens. */
export async function resealToolSecrets(secrets: SecretBox, repo: ToolsRepo): Promise<ResealOutcome> {
  const rows = await repo.listSealedSecrets();
  const headerRows = await repo.listSealedHeaders();
  return resealAll(secrets, [
    ...rows.map((row) => ({ id: row.id, sealed: sealedSecretOf(row), save: (fresh: SealedSecret) => repo.saveSealedSecret(row.organization_id, row.id, fresh.sealed, fresh.keyId) })),
    ...headerRows.map((row) => ({ id: row.id, sealed: sealedHeadersOf(row), save: (fresh: SealedSecret) => repo.saveSealedHeaders(row.organization_id, row.id, fresh.sealed, fresh.keyId) })),
  ]);
}

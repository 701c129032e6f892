// A connector's client secret at rest: sealed with the server's secret key (src/secrets/), its key id
// beside it so that keys can rotate, and a hint that reads show. Opened only to ask for a token.
import { resealAll, resealIfStale, type ResealOutcome } from '../../secrets/reseal.js';
import { keyHint, type SecretBox } from '../../secrets/secret-box.js';
import type { ConnectorRow, ConnectorsRepo } from './connectors.repo.js';

type SecretColumns = Pick<ConnectorRow, 'client_secret_sealed' | 'client_secret_key_id' | 'client_secret_hint'>;
type SealedColumns = Pick<ConnectorRow, 'client_secret_sealed' | 'client_secret_key_id'>;

const sealedOf = (row: SealedColumns) => ({ sealed: row.client_secret_sealed, keyId: row.client_secret_key_id });

export function clientSecretColumns(secrets: SecretBox, secret: string): SecretColumns {
  const { sealed, keyId } = secrets.seal(secret);
  return { client_secret_sealed: sealed, client_secret_key_id: keyId, client_secret_hint: keyHint(secret) };
}

/** The secret sealed again with the current key when a former one sealed it (as the row is next written). */
export function resealedClientSecret(secrets: SecretBox, row: SealedColumns): Partial<SecretColumns> {
  const fresh = resealIfStale(secrets, sealedOf(row));
  return fresh === undefined ? {} : { client_secret_sealed: fresh.sealed, client_secret_key_id: fresh.keyId };
}

export function openClientSecret(secrets: SecretBox, row: SealedColumns): string {
  return secrets.open(sealedOf(row));
}

/** Re-seals every connector secret sealed with a former key; lists the connectors whose secret no known key opens. */
export async function resealConnectorSecrets(secrets: SecretBox, repo: ConnectorsRepo): Promise<ResealOutcome> {
  const rows = await repo.listSealedSecrets();
  return resealAll(
    secrets,
    rows.map((row) => ({ id: row.id, sealed: sealedOf(row), save: (fresh) => repo.saveSealedSecret(row.organization_id, row.id, fresh.sealed, fresh.keyId) })),
  );
}

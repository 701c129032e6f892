// A mailbox's refresh token at rest: sealed with the server's secret key (src/secrets/), its key id
// beside it so that keys can rotate. Opened only to ask the provider for an access token; never shown.
import { resealAll, type ResealOutcome } from '../../secrets/reseal.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import type { MailboxRow, MailboxesRepo } from './mailboxes.repo.js';

type TokenColumns = Pick<MailboxRow, 'refresh_token_sealed' | 'refresh_token_key_id'>;

export function refreshTokenColumns(secrets: SecretBox, refreshToken: string): TokenColumns {
  const { sealed, keyId } = secrets.seal(refreshToken);
  return { refresh_token_sealed: sealed, refresh_token_key_id: keyId };
}

export function openRefreshToken(secrets: SecretBox, row: TokenColumns): string {
  return secrets.open({ sealed: row.refresh_token_sealed, keyId: row.refresh_token_key_id });
}

/** Re-seals every refresh token sealed with a former key; lists the mailboxes whose token no known key opens. */
export async function resealMailboxTokens(secrets: SecretBox, repo: MailboxesRepo): Promise<ResealOutcome> {
  const rows = await repo.listSealedTokens();
  return resealAll(
    secrets,
    rows.map((row) => ({
      id: row.id,
      sealed: { sealed: row.refresh_token_sealed, keyId: row.refresh_token_key_id },
      save: (fresh) => repo.saveSealedToken(row.organization_id, row.id, fresh.sealed, fresh.keyId),
    })),
  );
}

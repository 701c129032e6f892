// reseal-secrets: seals every stored secret (LLM configurations' provider keys, tools' and connectors' secrets, mailboxes' refresh tokens) with the
// current secret key, so that former keys (SECRET_KEY_PREVIOUS) can be retired. Secrets that no known
// secret key opens are listed, not changed.
import type { Config } from '../../config.js';
import { openDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { unitOfWork } from '../../repositories.js';
import { resolveSecretKey } from '../../secret-key.js';
import { SecretBox } from '../../secrets/secret-box.js';
import { resealConnectorSecrets } from '../connectors/connector-secrets.js';
import { resealMailboxTokens } from '../email-indexing/mailbox-secrets.js';
import { resealToolSecrets } from '../tools/tool-secrets.js';
import { resealStoredKeys } from './llm-models.js';

export interface ResealSummary {
  resealed: number;
  current: number;
  /** LLM configurations whose key no known secret key opens. */
  unreadable: number[];
  /** Tools whose secret no known secret key opens. */
  unreadableTools: number[];
  /** Connectors whose client secret no known secret key opens. */
  unreadableConnectors: number[];
  /** Mailboxes whose refresh token no known secret key opens. */
  unreadableMailboxes: number[];
}

export async function resealSecrets(config: Config): Promise<ResealSummary> {
  const database = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, preparedStatements: config.databasePreparedStatements });
  try {
    await migrateToLatest(database);
    const secrets = new SecretBox(resolveSecretKey(config), config.secretKeyPrevious);
    const { repos } = unitOfWork(database);
    const keys = await resealStoredKeys(secrets, repos.llmConfigurations);
    const tools = await resealToolSecrets(secrets, repos.tools);
    const connectors = await resealConnectorSecrets(secrets, repos.connectors);
    const mailboxes = await resealMailboxTokens(secrets, repos.mailboxes);
    return {
      resealed: keys.resealed + tools.resealed + connectors.resealed + mailboxes.resealed,
      current: keys.current + tools.current + connectors.current + mailboxes.current,
      unreadable: keys.unreadable,
      unreadableTools: tools.unreadable,
      unreadableConnectors: connectors.unreadable,
      unreadableMailboxes: mailboxes.unreadable,
    };
  } finally {
    await database.close();
  }
}

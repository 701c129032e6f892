// reseal-secrets: seals every stored provider key with the current secret key, so that former keys
// (SECRET_KEY_PREVIOUS) can be retired. Keys that no known secret key opens are listed, not changed.
import type { Config } from '../../config.js';
import { openDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { unitOfWork } from '../../repositories.js';
import { resolveSecretKey } from '../../secret-key.js';
import { SecretBox } from '../../secrets/secret-box.js';
import { resealStoredKeys } from './llm-models.js';

export async function resealSecrets(config: Config): Promise<{ resealed: number; current: number; unreadable: number[] }> {
  const database = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    await migrateToLatest(database);
    const secrets = new SecretBox(resolveSecretKey(config), config.secretKeyPrevious);
    return await resealStoredKeys(secrets, unitOfWork(database).repos.llmConfigurations);
  } finally {
    await database.close();
  }
}

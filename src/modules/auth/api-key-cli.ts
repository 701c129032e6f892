// create-api-key: an API key for an existing user, made by the same service as the HTTP route.
import type { Config } from '../../config.js';
import { openDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { unitOfWork } from '../../repositories.js';
import { FeatureFlagsService } from '../flags/flags.service.js';
import { createFirstOwner } from '../organizations/first-start.js';
import { AuthService } from './auth.service.js';

export async function createApiKeyForUser(config: Config, email: string, name: string): Promise<string> {
  const database = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, preparedStatements: config.databasePreparedStatements });
  try {
    await migrateToLatest(database);
    const store = unitOfWork(database);
    const firstStart = await createFirstOwner(store, config);
    if (firstStart?.generatedPassword) {
      process.stderr.write(`First start: created the owner ${firstStart.email} with password ${firstStart.generatedPassword}\n`);
    }
    const user = await store.repos.users.findByEmail(email);
    if (!user || user.deactivated_on !== null) throw new Error(`No active user with e-mail ${email}`);
    const key = await new AuthService(store, config, new FeatureFlagsService(store)).createApiKey({ userId: user.id, organizationId: user.organization_id }, { name });
    return key.key;
  } finally {
    await database.close();
  }
}

// create-api-key: an API key for an existing user, made by the same service as the HTTP route.
import { withMigratedStore } from '../../cli/migrated-store.js';
import type { Config } from '../../config.js';
import { FeatureFlagsService } from '../flags/flags.service.js';
import { createFirstOwner } from '../organizations/first-start.js';
import { AuthService } from './auth.service.js';

export function createApiKeyForUser(config: Config, email: string, name: string): Promise<string> {
  return withMigratedStore(config, async (store) => {
    const firstStart = await createFirstOwner(store, config);
    if (firstStart?.generatedPassword) {
      process.stderr.write(`First start: created the owner ${firstStart.email} with password ${firstStart.generatedPassword}\n`);
    }
    const user = await store.repos.users.findByEmail(email);
    if (!user || user.deactivated_on !== null) throw new Error(`No active user with e-mail ${email}`);
    const key = await new AuthService(store, config, new FeatureFlagsService(store)).createApiKey({ userId: user.id, organizationId: user.organization_id }, { name });
    return key.key;
  });
}

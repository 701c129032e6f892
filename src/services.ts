// Every service of the server, built once per app over one database.
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { AgentsService } from './modules/agents/agents.service.js';
import { FavoritesService } from './modules/agents/favorites.service.js';
import { HistoryService } from './modules/agents/history.service.js';
import { AuthService } from './modules/auth/auth.service.js';
import { FeatureFlagsService } from './modules/flags/flags.service.js';
import { NotificationsService } from './modules/notifications/notifications.service.js';
import { ConfigurationsService } from './modules/organizations/configurations.service.js';
import { OrganizationsService } from './modules/organizations/organizations.service.js';
import { ProjectsService } from './modules/projects/projects.service.js';
import { TeamsService } from './modules/teams/teams.service.js';
import { UsersService } from './modules/users/users.service.js';
import type { BlobStore } from './storage/blob-store.js';

export function buildServices(database: Database, config: Config, blobs: BlobStore) {
  const flags = new FeatureFlagsService(database);
  const notifications = new NotificationsService(database);
  return {
    flags,
    notifications,
    auth: new AuthService(database, config, flags),
    users: new UsersService(database, config),
    organizations: new OrganizationsService(database, blobs),
    configurations: new ConfigurationsService(database),
    teams: new TeamsService(database, notifications),
    projects: new ProjectsService(database, notifications),
    agents: new AgentsService(database, flags),
    history: new HistoryService(database, flags),
    favorites: new FavoritesService(database),
  };
}

export type Services = ReturnType<typeof buildServices>;

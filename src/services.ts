// Every service of the server, built once per app over one database.
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { AgentsService } from './modules/agents/agents.service.js';
import { FavoritesService } from './modules/agents/favorites.service.js';
import { HistoryService } from './modules/agents/history.service.js';
import { AuthService } from './modules/auth/auth.service.js';
import { UsersService } from './modules/users/users.service.js';

export function buildServices(database: Database, config: Config) {
  return {
    auth: new AuthService(database, config),
    users: new UsersService(database),
    agents: new AgentsService(database),
    history: new HistoryService(database),
    favorites: new FavoritesService(database),
  };
}

export type Services = ReturnType<typeof buildServices>;

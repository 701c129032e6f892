import type { SharedServices } from '../../shared-services.js';
import type { AppModule } from '../app-module.js';
import { usersRoutes } from './users.routes.js';
import { UsersService } from './users.service.js';

export const usersModule: AppModule = { name: 'users', routes: [usersRoutes] };

export function buildUsersServices({ store, config }: SharedServices) {
  return { users: new UsersService(store, config) };
}

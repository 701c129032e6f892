import type { SharedServices } from '../../shared-services.js';
import type { AppModule } from '../app-module.js';
import { authRoutes } from './auth.routes.js';
import { AuthService } from './auth.service.js';

export const authModule: AppModule = { name: 'auth', routes: [authRoutes] };

export function buildAuthServices({ store, config, flags }: SharedServices) {
  return { auth: new AuthService(store, config, flags) };
}

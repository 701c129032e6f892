import type { AppModule } from '../app-module.js';
import { homeRoutes } from './home.routes.js';
import { serviceRoutes } from './service.routes.js';

/** The index, health, readiness, version and changelog: no services of their own. */
export const serviceModule: AppModule = { name: 'service', routes: [homeRoutes, serviceRoutes] };

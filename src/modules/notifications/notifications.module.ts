import type { AppModule } from '../app-module.js';
import { notificationsRoutes } from './notifications.routes.js';

/** Its service is one of the shared ones (src/shared-services.ts): teams, projects and documents send notifications. */
export const notificationsModule: AppModule = { name: 'notifications', routes: [notificationsRoutes] };

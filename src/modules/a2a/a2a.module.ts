import type { AppModule } from '../app-module.js';
import { a2aRoutes } from './a2a.routes.js';

/** A door to the asking pipeline (app.services.asks) for other agents: its tasks and event buses live in its routes' plugin, one per app. */
export const a2aModule: AppModule = { name: 'a2a', routes: [a2aRoutes] };

import type { AppModule } from '../app-module.js';
import { mcpRoutes } from './mcp.routes.js';

/** A door to the asking pipeline and retrieval (app.services.asks, search): no services of its own. */
export const mcpModule: AppModule = { name: 'mcp', routes: [mcpRoutes] };

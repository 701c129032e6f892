import type { AppModule } from '../app-module.js';
import { openAiRoutes } from './openai.routes.js';

/** A door to the asking pipeline (app.services.asks): no services of its own. */
export const openAiModule: AppModule = { name: 'openai', routes: [openAiRoutes] };

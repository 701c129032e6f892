// The first generation of the API: doors to the services of other modules, with none of their own.
// One module per door, so that the list of modules (src/app-modules.ts) places each where the API
// document has always listed it, after the v2 routes of what it serves.
import type { AppModule } from '../app-module.js';
import { legacyChatRoutes } from './chat.routes.js';
import { legacyCorporaRoutes } from './corpora.routes.js';
import { legacyLlmRoutes } from './llm.routes.js';
import { legacyPeopleRoutes } from './people.routes.js';
import { legacyResponsesAskRoutes } from './responses-ask.routes.js';
import { legacyStartersRoutes } from './starters.routes.js';
import { legacyToolsRoutes } from './tools.routes.js';

/** Users, teams, projects, notifications and feature flags. */
export const legacyPeopleModule: AppModule = { name: 'legacy-people', routes: [legacyPeopleRoutes] };
export const legacyCorporaModule: AppModule = { name: 'legacy-corpora', routes: [legacyCorporaRoutes] };
export const legacyLlmModule: AppModule = { name: 'legacy-llm', routes: [legacyLlmRoutes] };
export const legacyToolsModule: AppModule = { name: 'legacy-tools', routes: [legacyToolsRoutes] };
export const legacyStartersModule: AppModule = { name: 'legacy-starters', routes: [legacyStartersRoutes] };
export const legacyChatModule: AppModule = { name: 'legacy-chat', routes: [legacyChatRoutes] };
/** After legacy-chat, whose routes open the path /api/responses/ that this door adds POST to. */
export const legacyResponsesAskModule: AppModule = { name: 'legacy-responses-ask', routes: [legacyResponsesAskRoutes] };

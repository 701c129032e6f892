// Every module of the server, in the order their routes are registered: the order in which the
// OpenAPI document lists the paths, so a module moved here moves its paths there. A v1 door follows
// the v2 routes of what it serves.
import { a2aModule } from './modules/a2a/a2a.module.js';
import { agentsModule } from './modules/agents/agents.module.js';
import { analyticsModule } from './modules/analytics/analytics.module.js';
import type { AppModule } from './modules/app-module.js';
import { authModule } from './modules/auth/auth.module.js';
import { chatModule } from './modules/chat/chat.module.js';
import { connectorsModule } from './modules/connectors/connectors.module.js';
import { corporaModule } from './modules/corpora/corpora.module.js';
import { documentsModule } from './modules/documents/documents.module.js';
import { emailIndexingModule } from './modules/email-indexing/email-indexing.module.js';
import { evaluationsModule } from './modules/evaluations/evaluations.module.js';
import { flagsModule } from './modules/flags/flags.module.js';
import { guardrailsModule } from './modules/guardrails/guardrails.module.js';
import {
  legacyChatModule,
  legacyCorporaModule,
  legacyLlmModule,
  legacyPeopleModule,
  legacyResponsesAskModule,
  legacyStartersModule,
  legacyToolsModule,
} from './modules/legacy/legacy.modules.js';
import { llmModule } from './modules/llm/llm.module.js';
import { mcpModule } from './modules/mcp/mcp.module.js';
import { notificationsModule } from './modules/notifications/notifications.module.js';
import { openAiModule } from './modules/openai/openai.module.js';
import { organizationsModule } from './modules/organizations/organizations.module.js';
import { projectsModule } from './modules/projects/projects.module.js';
import { runtimeModule } from './modules/runtime/runtime.module.js';
import { serviceModule } from './modules/service/service.module.js';
import { teamsModule } from './modules/teams/teams.module.js';
import { toolsModule } from './modules/tools/tools.module.js';
import { usersModule } from './modules/users/users.module.js';

export const APP_MODULES: readonly AppModule[] = [
  serviceModule,
  authModule,
  usersModule,
  agentsModule,
  organizationsModule,
  teamsModule,
  projectsModule,
  notificationsModule,
  flagsModule,
  legacyPeopleModule,
  legacyCorporaModule,
  llmModule,
  legacyLlmModule,
  toolsModule,
  guardrailsModule,
  legacyToolsModule,
  legacyStartersModule,
  corporaModule,
  documentsModule,
  chatModule,
  legacyChatModule,
  runtimeModule,
  legacyResponsesAskModule,
  openAiModule,
  mcpModule,
  a2aModule,
  connectorsModule,
  emailIndexingModule,
  analyticsModule,
  evaluationsModule,
];

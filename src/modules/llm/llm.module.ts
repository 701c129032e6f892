import type { SharedServices } from '../../shared-services.js';
import type { AppModule } from '../app-module.js';
import { llmConfigurationsRoutes } from './llm-configurations.routes.js';
import { LlmConfigurationsService } from './llm-configurations.service.js';

export const llmModule: AppModule = { name: 'llm', routes: [llmConfigurationsRoutes] };

export function buildLlmServices({ store, secrets, egress, config }: SharedServices) {
  return { llm: new LlmConfigurationsService(store, secrets, egress, { timeoutMs: config.limits.llmTimeoutMs, maxRetries: 2 }) };
}

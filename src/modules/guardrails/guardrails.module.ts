import type { SharedServices } from '../../shared-services.js';
import type { AppModule } from '../app-module.js';
import { guardrailsRoutes } from './guardrails.routes.js';
import { GuardrailsService } from './guardrails.service.js';

export const guardrailsModule: AppModule = { name: 'guardrails', routes: [guardrailsRoutes] };

export function buildGuardrailsServices({ store, flags, embedder }: SharedServices) {
  return { guardrails: new GuardrailsService(store, flags, embedder) };
}

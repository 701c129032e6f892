import type { SharedServices } from '../../shared-services.js';
import { createImageGenerator } from '../../providers/images/create-image-generator.js';
import { agentImagesRoutes } from '../agent-images/agent-images.routes.js';
import { AgentImagesService } from '../agent-images/agent-images.service.js';
import type { AppModule } from '../app-module.js';
import { builderRoutes } from '../builder/builder.routes.js';
import { BuilderService } from '../builder/builder.service.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import type { LlmConfigurationsService } from '../llm/llm-configurations.service.js';
import { AgentTags } from './agent-tags.js';
import { agentsRoutes } from './agents.routes.js';
import { AgentsService } from './agents.service.js';
import { favoritesRoutes } from './favorites.routes.js';
import { FavoritesService } from './favorites.service.js';
import { historyRoutes } from './history.routes.js';
import { HistoryService } from './history.service.js';
import { teamAgentsRoutes } from './team-agents.routes.js';

/**
 * Agents, and what is built on them: the builder's drafts and the agents' images (their own folders,
 * src/modules/builder and agent-images), history and checkpoints, favourites, team roles.
 */
export const agentsModule: AppModule = {
  name: 'agents',
  routes: [agentsRoutes, builderRoutes, agentImagesRoutes, historyRoutes, favoritesRoutes, teamAgentsRoutes],
};

export function buildAgentsServices({ store, flags, blobs, egress, config }: SharedServices, { corpora, llm }: { corpora: CorporaService; llm: LlmConfigurationsService }) {
  return {
    agents: new AgentsService(
      store,
      flags,
      (actor, agentId) => corpora.corporaOfAgent(actor, agentId),
      (actor, corpusId) => corpora.requireCorpus(actor, corpusId, 'read'),
    ),
    agentTags: new AgentTags(store),
    history: new HistoryService(store, flags),
    favorites: new FavoritesService(store),
    builder: new BuilderService(store, flags, corpora, llm, { llmTimeoutMs: config.limits.llmTimeoutMs }),
    agentImages: new AgentImagesService(store, flags, blobs, createImageGenerator(config.image, egress), config.limits.imageBytes),
  };
}

import type { SharedServices } from '../../shared-services.js';
import type { ToolDeps } from '../../tools/index.js';
import type { AppModule } from '../app-module.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import type { SearchService } from '../retrieval/search.service.js';
import { toolsRoutes } from './tools.routes.js';
import { ToolsService } from './tools.service.js';

export const toolsModule: AppModule = { name: 'tools', routes: [toolsRoutes] };

export function buildToolsServices({ store, flags, secrets, egress, blobs, config }: SharedServices, { search, corpora }: { search: SearchService; corpora: CorporaService }) {
  const toolDeps: ToolDeps = { egress, store, search, corpora, blobs, maxOutputCharacters: config.limits.toolOutputCharacters, stdioCommands: config.mcpStdioCommands };
  const tools = new ToolsService(store, flags, secrets, toolDeps, {
    allowedHosts: config.egress.allowedHosts,
    stdioCommands: config.mcpStdioCommands,
    timeoutMs: config.limits.toolTimeoutMs,
    maxResponseBytes: config.limits.toolResponseBytes,
  });
  return { tools };
}

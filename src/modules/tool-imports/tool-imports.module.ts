import type { JobHandlers } from '../../jobs/job-handler.js';
import type { SharedServices } from '../../shared-services.js';
import type { AppModule } from '../app-module.js';
import type { ToolsService } from '../tools/tools.service.js';
import { ToolImportJob } from './tool-import-job.js';
import { toolImportsRoutes } from './tool-imports.routes.js';
import { ToolImportsService } from './tool-imports.service.js';

export const toolImportsModule: AppModule = { name: 'tool-imports', routes: [toolImportsRoutes] };

/** Imports of OpenAPI documents as tools, and the job that runs them: the handler of 'tool.import'. */
export function buildToolImportsServices({ store, secrets, blobs, egress, config, wakeWorker }: SharedServices, { tools }: { tools: ToolsService }) {
  const limits = { bytes: config.limits.toolImportBytes, operations: config.limits.toolImportOperations, schemaParts: config.limits.toolImportSchemaParts };
  // A job waits on nobody: resolving a large document's references (GitHub's takes seconds) may take a minute.
  const job = new ToolImportJob({ store, tools, blobs, egress, timeoutMs: config.egress.defaultTimeoutMs, limits: { ...limits, dereferenceTimeoutMs: 60_000 } });
  return {
    services: { toolImports: new ToolImportsService(store, tools, secrets, blobs, {
        maxDocumentBytes: limits.bytes,
        wake: wakeWorker,
        preview: { egress, timeoutMs: config.egress.defaultTimeoutMs, limits },
      }) },
    jobHandlers: { 'tool.import': job } satisfies Partial<JobHandlers>,
  };
}

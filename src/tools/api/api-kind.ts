// The API tool as a kind: one HTTP operation, its settings checked by src/tools/api/config-check.ts,
// and a secret required whenever its authentication sends one.
import type { ToolKindDescriptor } from '../tool-kind.js';
import { createApiTool } from './api-tool.js';
import { ApiToolConfig } from './config.js';
import { apiConfigProblems } from './config-check.js';

export const apiToolKind: ToolKindDescriptor<ApiToolConfig> = {
  kind: 'api',
  settings: ApiToolConfig,
  featureFlag: 'api-tools',
  takesSecret: true,
  settingsProblems(config, context) {
    const problems = apiConfigProblems(config, context.allowList, context.at);
    const auth = config.auth ?? { type: 'none' };
    if (auth.type !== 'none' && !context.hasSecret) problems.push({ pointer: '/body/secret', message: `is required: the tool authenticates with ${auth.type}` });
    return problems;
  },
  create: createApiTool,
};

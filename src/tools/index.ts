// The door of the tools engine: what the rest of the server (the tools resource, the runtime, the
// providers) may use of it. Everything else under src/tools is the engine's own (eslint.config.js).
export type { FoundPassage, JsonSchema, RemoteTool, RemoteToolList, RunnableTool, SentRequest, StoredTool, ToolDefinition, ToolKind, ToolOutcome, ToolRunContext } from './tool.js';
export type { ToolDeps } from './tool-deps.js';
export type { RemoteRequestBounds, SettingsContext, ToolKindDescriptor } from './tool-kind.js';
export { buildRunnableTools, TOOL_KINDS, toolKind, unusableTool } from './kinds.js';
export { checkArguments, describeProblems } from './json-schema.js';
export { ApiToolConfig } from './api/config.js';
export { WebSearchConfig } from './web-search/config.js';
export { RetrievalConfig } from './retrieval/config.js';
export { AttachmentConfig } from './attachment/config.js';
export { McpToolConfig } from './mcp/config.js';
export { offeredTools } from './mcp/remote-tools.js';
export { requireOneSource, type DocumentLimits } from './api/openapi/document.js';
export { previewDocument, readDocumentOperations, type OperationsReading } from './api/openapi/operations-reader.js';
export { type OperationSummary } from './api/openapi/operations.js';
export type { OperationResult } from './api/openapi/import-plan.js';
export { findToolTemplate, toolTemplates } from './templates/index.js';
export { ToolTemplate } from './templates/template.js';

// The three ways to make API tools with `POST …/tools/api`: from settings written whole, from a
// template shipped with the server (with overrides), or one per chosen operation of an OpenAPI 3 /
// Swagger 2 document. Each gives drafts (name, description, settings) that the service then checks
// and saves like any other tool.
import { BadRequest, type ErrorDetail } from '../../errors.js';
import type { EgressClient } from '../../net/egress.js';
import { type ApiToolConfig, chooseOperations, findToolTemplate, importOperation, loadOpenApiDocument, toolNameOf } from '../../tools/index.js';
import { MAX_IMPORTED_TOOLS, type CreateApiToolInput } from './tools.schemas.js';

export interface ToolDraft {
  name: string;
  description: string;
  config: Record<string, unknown>;
  /** Where the settings come from in the request, for the pointers of their problems. */
  at: string;
}

/** The settings with the overrides applied: each replaces the setting, headers are merged. */
function withOverrides(config: ApiToolConfig, overrides: Partial<ApiToolConfig> | undefined): ApiToolConfig {
  if (overrides === undefined) return config;
  const headers = overrides.headers === undefined ? config.headers : { ...config.headers, ...overrides.headers };
  return { ...config, ...overrides, ...(headers === undefined ? {} : { headers }) };
}

function fromScratch(input: CreateApiToolInput): ToolDraft[] {
  const missing: ErrorDetail[] = [];
  if (input.name === undefined) missing.push({ pointer: '/body/name', message: 'is required with config' });
  if (input.description === undefined) missing.push({ pointer: '/body/description', message: 'is required with config' });
  if (input.overrides !== undefined) missing.push({ pointer: '/body/overrides', message: 'goes with template_id or openapi, not config' });
  if (missing.length > 0) throw new BadRequest(`An API tool made from config needs ${missing.map((detail) => detail.pointer.slice(6)).join(' and ')}`, missing);
  return [{ name: input.name!, description: input.description!, config: input.config as Record<string, unknown>, at: '/body/config' }];
}

function fromTemplate(input: CreateApiToolInput, templateId: string): ToolDraft[] {
  const template = findToolTemplate(templateId);
  if (template === undefined) throw new BadRequest(`There is no tool template "${templateId}"`, [{ pointer: '/body/template_id', message: 'names no template (GET /api/v2/tool-templates)' }]);
  return [
    {
      name: input.name ?? template.name,
      description: input.description ?? template.description,
      config: withOverrides(structuredClone(template.config), input.overrides) as Record<string, unknown>,
      at: '/body/overrides',
    },
  ];
}

async function fromOpenApi(input: CreateApiToolInput, openapi: NonNullable<CreateApiToolInput['openapi']>, egress: EgressClient, timeoutMs: number): Promise<ToolDraft[]> {
  if (input.name !== undefined || input.description !== undefined) {
    throw new BadRequest('Tools imported from a document take their names and descriptions from its operations (use openapi.name_prefix)', [
      { pointer: input.name !== undefined ? '/body/name' : '/body/description', message: 'cannot be given with openapi' },
    ]);
  }
  const { document, sourceUrl } = await loadOpenApiDocument({ url: openapi.url, document: openapi.document }, egress, timeoutMs);
  const refs = chooseOperations(document, openapi.operations, MAX_IMPORTED_TOOLS);
  const taken = new Set<string>();
  try {
    return refs.map((ref, index) => {
      const imported = importOperation(document, ref, { sourceUrl, serverUrl: openapi.server_url, namePrefix: openapi.name_prefix ?? '' });
      let name = imported.name;
      for (let n = 2; taken.has(name); n++) name = `${toolNameOf(imported.name, 60)}_${n}`;
      taken.add(name);
      return { name, description: imported.description, config: withOverrides(imported.config, input.overrides) as Record<string, unknown>, at: `/body/openapi/operations/${index}` };
    });
  } catch (error) {
    if (error instanceof RangeError) throw new BadRequest('The OpenAPI document is nested too deeply to be imported');
    throw error;
  }
}

/** The drafts the request asks for, and whether they come from a document (the answer is then a list). */
export async function apiToolDrafts(input: CreateApiToolInput, egress: EgressClient, timeoutMs: number): Promise<{ drafts: ToolDraft[]; imported: boolean }> {
  const sources = (['config', 'template_id', 'openapi'] as const).filter((field) => input[field] !== undefined);
  if (sources.length !== 1) {
    throw new BadRequest('Give exactly one of config (a tool written whole), template_id (a template) or openapi (a document to import)', [
      { pointer: '/body', message: sources.length === 0 ? 'needs config, template_id or openapi' : `gives ${sources.join(' and ')}: only one may be given` },
    ]);
  }
  if (input.openapi !== undefined) return { drafts: await fromOpenApi(input, input.openapi, egress, timeoutMs), imported: true };
  if (input.template_id !== undefined) return { drafts: fromTemplate(input, input.template_id), imported: false };
  return { drafts: fromScratch(input), imported: false };
}

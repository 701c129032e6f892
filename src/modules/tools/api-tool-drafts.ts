// Two of the three ways to make API tools with `POST …/tools/api`: from settings written whole, or
// from a template shipped with the server (with overrides). Each gives a draft (name, description,
// settings) that the service then checks and saves like any other tool. The third, one tool per
// chosen operation of an OpenAPI document, is openapi-import.ts.
import { BadRequest, type ErrorDetail } from '../../errors.js';
import { findToolTemplate } from '../../tools/index.js';
import { withOverrides } from './imported-operations.js';
import type { CreateApiToolInput } from './tools.schemas.js';

export interface ToolDraft {
  name: string;
  description: string;
  config: Record<string, unknown>;
  /** Where the settings come from in the request, for the pointers of their problems. */
  at: string;
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

/** Exactly one of config, template_id and openapi, else a 400. */
export function requireOneWay(input: CreateApiToolInput): void {
  const sources = (['config', 'template_id', 'openapi'] as const).filter((field) => input[field] !== undefined);
  if (sources.length !== 1) {
    throw new BadRequest('Give exactly one of config (a tool written whole), template_id (a template) or openapi (a document to import)', [
      { pointer: '/body', message: sources.length === 0 ? 'needs config, template_id or openapi' : `gives ${sources.join(' and ')}: only one may be given` },
    ]);
  }
}

/** The draft the request asks for, from settings written whole or a template. */
export function apiToolDraft(input: CreateApiToolInput): ToolDraft {
  return input.template_id !== undefined ? fromTemplate(input, input.template_id)[0]! : fromScratch(input)[0]!;
}

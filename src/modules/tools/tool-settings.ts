// The settings of each kind of tool, checked when written: by the kind's schema (defaults filled in),
// then by the rules the schema cannot say — an API tool's URL, parameters and placeholders, a web
// search address the egress rules allow, the corpora of a retrieval tool in the organization, the
// secret a kind's authentication needs. Every problem is a detail of one 400.
import type { TSchema } from '@sinclair/typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { BadRequest, type ErrorDetail } from '../../errors.js';
import type { AllowList } from '../../net/allowed-hosts.js';
import { EgressRefused } from '../../net/egress-errors.js';
import { checkDestination } from '../../net/egress.js';
import { ApiToolConfig } from '../../tools/api/config.js';
import { apiConfigProblems } from '../../tools/api/config-check.js';
import { AttachmentConfig } from '../../tools/attachment/config.js';
import { RetrievalConfig } from '../../tools/retrieval/config.js';
import type { ToolKind } from '../../tools/tool.js';
import { WebSearchConfig, webSearchConfigProblem } from '../../tools/web-search/config.js';

const CONFIG_SCHEMAS: Record<ToolKind, TSchema> = { api: ApiToolConfig, web_search: WebSearchConfig, retrieval: RetrievalConfig, attachment: AttachmentConfig };
/** The largest settings of one tool, as JSON. */
const MAX_CONFIG_BYTES = 128 * 1024;

const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true });
addFormats.default(ajv);
const validators = new Map<ToolKind, ValidateFunction>();

function validatorOf(kind: ToolKind): ValidateFunction {
  let validate = validators.get(kind);
  if (validate === undefined) validators.set(kind, (validate = ajv.compile(CONFIG_SCHEMAS[kind])));
  return validate;
}

export interface SettingsContext {
  /** Whether the tool will have a secret (sent now, or kept). */
  hasSecret: boolean;
  allowList: AllowList;
  /** The corpora of the caller's organization among these ids. */
  existingCorpora(corpusIds: number[]): Promise<number[]>;
  /** Where the settings are in the request, e.g. /body/config. */
  at: string;
}

function destinationProblems(url: string | undefined, allowList: AllowList, pointer: string): ErrorDetail[] {
  if (url === undefined) return [];
  try {
    checkDestination(new URL(url), allowList);
    return [];
  } catch (error) {
    if (error instanceof EgressRefused) return [{ pointer, message: error.message }];
    if (error instanceof TypeError) return [{ pointer, message: 'is not an absolute URL' }];
    throw error;
  }
}

async function ruleProblems(kind: ToolKind, config: Record<string, unknown>, context: SettingsContext): Promise<ErrorDetail[]> {
  const { at } = context;
  switch (kind) {
    case 'api': {
      const api = config as ApiToolConfig;
      const problems = apiConfigProblems(api, context.allowList, at);
      const auth = api.auth ?? { type: 'none' };
      if (auth.type !== 'none' && !context.hasSecret) problems.push({ pointer: '/body/secret', message: `is required: the tool authenticates with ${auth.type}` });
      return problems;
    }
    case 'web_search': {
      const search = config as WebSearchConfig;
      const problems = destinationProblems(search.base_url, context.allowList, `${at}/base_url`);
      const problem = webSearchConfigProblem(search, context.hasSecret ? 'kept' : null);
      if (problem !== null) problems.push({ pointer: search.provider === 'searxng' ? `${at}/base_url` : '/body/secret', message: problem });
      return problems;
    }
    case 'retrieval': {
      const ids = (config as RetrievalConfig).corpus_ids;
      const existing = new Set(await context.existingCorpora(ids));
      return ids.flatMap((id, index) => (existing.has(id) ? [] : [{ pointer: `${at}/corpus_ids/${index}`, message: `corpus ${id} is not a corpus of the organization` }]));
    }
    case 'attachment':
      return [];
  }
}

/** The settings with their defaults, or a 400 naming every problem. */
export async function checkedSettings(kind: ToolKind, config: unknown, context: SettingsContext): Promise<Record<string, unknown>> {
  if (JSON.stringify(config ?? null).length > MAX_CONFIG_BYTES) throw new BadRequest(`The tool's settings are larger than ${MAX_CONFIG_BYTES} bytes`, [{ pointer: context.at, message: 'is too large' }]);
  const copy = structuredClone(config) as Record<string, unknown>;
  const validate = validatorOf(kind);
  if (!validate(copy)) {
    const details = (validate.errors ?? []).slice(0, 20).map((error) => ({ pointer: `${context.at}${error.instancePath}`, message: error.message ?? 'is not valid' }));
    throw new BadRequest(`Invalid settings for a ${kind} tool: ${details[0]!.pointer} ${details[0]!.message}`, details);
  }
  const problems = await ruleProblems(kind, copy, context);
  if (problems.length > 0) throw new BadRequest(`Invalid settings for a ${kind} tool: ${problems[0]!.pointer} ${problems[0]!.message}`, problems);
  return copy;
}

/** Kinds whose settings may use a secret. */
export const KINDS_WITH_SECRET: ReadonlySet<ToolKind> = new Set(['api', 'web_search']);

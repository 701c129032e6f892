// The rules of an API tool's settings beyond their TypeBox schema, checked when a tool is saved:
// the URL template (written as the URL parser reads it, http(s), no credentials, placeholders only
// in the path: src/tools/api/url-template.ts; a destination the egress rules allow), header names as
// HTTP allows them, the parameters as a JSON Schema of an object with names every provider accepts,
// and that every placeholder and location names a parameter. Each problem is one detail.
import type { ErrorDetail } from '../../errors.js';
import { EgressRefused } from '../../net/egress-errors.js';
import { checkDestination } from '../../net/egress.js';
import type { AllowList } from '../../net/allowed-hosts.js';
import type { ApiToolConfig } from './config.js';
import { schemaProblems } from '../json-schema.js';
import { bodyPlaceholders, pathPlaceholders, placementsOf, propertiesOf } from './placements.js';
import { fillUrlTemplate, urlTemplateProblem } from './url-template.js';

/** Property names every model provider accepts in a tool's parameters. */
export const PARAMETER_NAME = /^[a-zA-Z0-9_.-]{1,64}$/;
/** A header or cookie name as HTTP allows it (a token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
/** The largest parameters schema, as JSON. */
export const MAX_PARAMETERS_BYTES = 64 * 1024;

function checkUrl(template: string, allowList: AllowList, at: string): ErrorDetail[] {
  const problem = urlTemplateProblem(template);
  if (problem !== null) return [{ pointer: at, message: problem }];
  try {
    checkDestination(new URL(fillUrlTemplate(template, () => 'x')), allowList);
  } catch (error) {
    if (error instanceof EgressRefused) return [{ pointer: at, message: error.message }];
    throw error;
  }
  return [];
}

function checkParameters(parameters: Record<string, unknown>, at: string): ErrorDetail[] {
  if (parameters.type !== 'object') return [{ pointer: `${at}/type`, message: 'must be "object": the parameters are the properties of one object' }];
  if (JSON.stringify(parameters).length > MAX_PARAMETERS_BYTES) return [{ pointer: at, message: `is larger than ${MAX_PARAMETERS_BYTES} bytes as JSON` }];
  const problems: ErrorDetail[] = schemaProblems(parameters).map((problem) => ({ pointer: `${at}${problem.path}`, message: `is not a valid JSON Schema: ${problem.message}` }));
  for (const name of propertiesOf(parameters)) {
    if (!PARAMETER_NAME.test(name)) problems.push({ pointer: `${at}/properties/${name}`, message: 'parameter names are 1 to 64 letters, digits, _ . or -' });
  }
  return problems;
}

/** Every problem of the settings; `at` is the pointer of the config in the request (e.g. /body/config). */
export function apiConfigProblems(config: ApiToolConfig, allowList: AllowList, at: string): ErrorDetail[] {
  const problems = [...checkUrl(config.url, allowList, `${at}/url`), ...checkParameters(config.parameters, `${at}/parameters`)];
  if (problems.length > 0) return problems;
  for (const name of Object.keys(config.headers ?? {})) {
    if (!TOKEN.test(name)) problems.push({ pointer: `${at}/headers`, message: `${JSON.stringify(name.slice(0, 130))} is not a valid header name (letters, digits and !#$%&'*+.^_\`|~-; no spaces or line breaks)` });
  }
  if (problems.length > 0) return problems;
  const properties = new Set(propertiesOf(config.parameters));
  for (const name of Object.keys(config.locations ?? {})) {
    if (!properties.has(name)) problems.push({ pointer: `${at}/locations/${name}`, message: 'names no parameter' });
  }
  const placements = placementsOf(config);
  const pathNames = new Set([...placements.values()].filter((placement) => placement.in === 'path').map((placement) => placement.name));
  for (const name of pathPlaceholders(config.url)) {
    if (!pathNames.has(name)) problems.push({ pointer: `${at}/url`, message: `{${name}} names no path parameter` });
  }
  for (const name of bodyPlaceholders(config.body)) {
    if (!properties.has(name)) problems.push({ pointer: `${at}/body`, message: `{{${name}}} names no parameter` });
  }
  for (const [parameter, placement] of placements) {
    const pointer = `${at}/locations/${parameter}`;
    if (placement.in === 'path' && !config.url.includes(`{${placement.name}}`)) problems.push({ pointer, message: `the URL has no {${placement.name}} for this path parameter` });
    if (placement.in === 'header' && !TOKEN.test(placement.name)) problems.push({ pointer, message: 'is not a valid header name' });
    if (placement.in === 'cookie' && !TOKEN.test(placement.name)) problems.push({ pointer, message: 'is not a valid cookie name' });
    if (placement.in === 'body' && config.method === 'GET') problems.push({ pointer, message: 'a GET request has no body' });
  }
  if (config.body !== undefined && config.method === 'GET') problems.push({ pointer: `${at}/body`, message: 'a GET request has no body' });
  return problems;
}

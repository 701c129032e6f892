// Where each parameter of an API tool goes in the request: as `locations` says, or by the rule that
// a parameter the URL template names goes in the path, one the body template names in the body, and
// any other in the query of a GET or DELETE and in the body of the other methods.
import { placeOf, type ApiToolConfig, type ParameterPlace } from './config.js';
import { URL_PLACEHOLDER } from './url-template.js';

export interface Placement {
  in: ParameterPlace;
  /** The name on the wire. */
  name: string;
}

/** `{{name}}` in a body template string. */
export const BODY_PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;

export function pathPlaceholders(urlTemplate: string): string[] {
  return [...urlTemplate.matchAll(URL_PLACEHOLDER)].map((match) => match[1]!);
}

/** Every parameter a body template names, at any depth. */
export function bodyPlaceholders(template: unknown): Set<string> {
  const names = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string') for (const match of value.matchAll(BODY_PLACEHOLDER)) names.add(match[1]!);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(template);
  return names;
}

export function propertiesOf(parameters: Record<string, unknown>): string[] {
  const properties = parameters.properties;
  return properties !== null && typeof properties === 'object' && !Array.isArray(properties) ? Object.keys(properties) : [];
}

/** The placement of every property of the parameters schema. */
export function placementsOf(config: ApiToolConfig): Map<string, Placement> {
  const inPath = new Set(pathPlaceholders(config.url));
  const inBody = config.body === undefined ? new Set<string>() : bodyPlaceholders(config.body);
  const queryByDefault = config.method === 'GET' || config.method === 'DELETE';
  const placements = new Map<string, Placement>();
  for (const parameter of propertiesOf(config.parameters)) {
    const written = config.locations?.[parameter];
    if (written !== undefined) placements.set(parameter, placeOf(written, parameter));
    else if (inPath.has(parameter)) placements.set(parameter, { in: 'path', name: parameter });
    else if (inBody.has(parameter)) placements.set(parameter, { in: 'body', name: parameter });
    else placements.set(parameter, { in: queryByDefault ? 'query' : 'body', name: parameter });
  }
  return placements;
}

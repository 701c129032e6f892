// How an imported operation authenticates, from the document's security requirements: the first
// scheme of the first requirement that an API tool can carry (an API key in a header or the query,
// HTTP bearer or basic; OAuth 2 and OpenID Connect as a bearer token given as the secret).
import type { ApiAuth } from '../config.js';
import type { OpenApiDocument } from './document.js';

function authOfScheme(scheme: Record<string, any> | undefined): ApiAuth | undefined {
  if (scheme === undefined || scheme === null || typeof scheme !== 'object') return undefined;
  const type = String(scheme.type ?? '').toLowerCase();
  if (type === 'apikey' && (scheme.in === 'header' || scheme.in === 'query') && typeof scheme.name === 'string' && scheme.name !== '') {
    return { type: 'api_key', in: scheme.in, name: scheme.name };
  }
  if (type === 'basic' || (type === 'http' && String(scheme.scheme).toLowerCase() === 'basic')) return { type: 'basic', username: '' };
  if (type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer') return { type: 'bearer' };
  if (type === 'oauth2' || type === 'openidconnect') return { type: 'bearer' };
  return undefined;
}

export function authOfOperation(document: OpenApiDocument, operation: Record<string, any>): ApiAuth {
  const schemes: Record<string, any> = document.components?.securitySchemes ?? document.securityDefinitions ?? {};
  const requirements: unknown = operation.security ?? document.security ?? [];
  if (!Array.isArray(requirements)) return { type: 'none' };
  for (const requirement of requirements) {
    if (requirement === null || typeof requirement !== 'object') continue;
    // An empty requirement ({}) means the operation may also be called without credentials.
    const names = Object.keys(requirement);
    if (names.length === 0) return { type: 'none' };
    const auth = authOfScheme(schemes[names[0]!]);
    if (auth !== undefined) return auth;
  }
  return { type: 'none' };
}

// Client-credentials tokens for Graph from the Microsoft identity platform, through MSAL
// (ConfidentialClientApplication.acquireTokenByClientCredential) over the egress client. The
// authority's metadata is given to MSAL rather than discovered, so the only request is the token
// endpoint's: `{login}/{tenant}/oauth2/v2.0/token`. MSAL is loaded with the first token asked for.
import type { EgressClient } from '../../../net/egress.js';
import { GraphError } from './graph-errors.js';
import { egressNetworkModule } from './msal-network.js';

export interface ClientCredentials {
  tenantId: string;
  clientId: string;
  clientSecret: string;
}

/** Graph's application permissions are asked for through its `.default` scope. */
export const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';

function authorityMetadata(authority: string): string {
  return JSON.stringify({
    token_endpoint: `${authority}/oauth2/v2.0/token`,
    authorization_endpoint: `${authority}/oauth2/v2.0/authorize`,
    end_session_endpoint: `${authority}/oauth2/v2.0/logout`,
    issuer: `${authority}/v2.0`,
    jwks_uri: `${authority}/discovery/v2.0/keys`,
  });
}

/** A bearer token for Graph; GraphError('auth') when the identity platform refuses the credentials. */
export async function acquireGraphToken(egress: EgressClient, loginBase: URL, credentials: ClientCredentials, signal?: AbortSignal): Promise<string> {
  // MSAL takes only https authorities: the network module maps this host back to the configured scheme.
  const { AuthError, ConfidentialClientApplication, ServerError } = await import('@azure/msal-node');
  const authority = `https://${loginBase.host}${loginBase.pathname.replace(/\/$/, '')}/${encodeURIComponent(credentials.tenantId)}`;
  const application = new ConfidentialClientApplication({
    auth: {
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      authority,
      knownAuthorities: [loginBase.host],
      authorityMetadata: authorityMetadata(authority),
    },
    system: { networkClient: egressNetworkModule(egress, loginBase, signal) },
  });
  try {
    const result = await application.acquireTokenByClientCredential({ scopes: [GRAPH_SCOPE] });
    if (!result?.accessToken) throw new GraphError('bad_response', 'The identity platform answered without an access token');
    return result.accessToken;
  } catch (error) {
    if (error instanceof GraphError) throw error;
    if (signal?.aborted) throw error;
    if (error instanceof ServerError) {
      // invalid_client, unauthorized_client, invalid_request (an unknown tenant)…: the credentials.
      const status = error.status ?? null;
      const code = status !== null && status >= 500 ? 'upstream' : status === 429 ? 'throttled' : 'auth';
      throw new GraphError(code, `The identity platform refused the client credentials (${error.errorCode}${status ? `, HTTP ${status}` : ''})`, status);
    }
    if (error instanceof AuthError) throw new GraphError('unreachable', `No token from the identity platform: ${error.errorCode}`);
    throw new GraphError('unreachable', `No token from the identity platform: ${error instanceof Error ? error.message : String(error)}`);
  }
}

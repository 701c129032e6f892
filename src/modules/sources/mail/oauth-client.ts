// The OAuth 2 authorization-code flow with PKCE (S256) against Microsoft's identity platform and
// Google, through oauth4webapi (its HTTP through the egress client, see egress-fetch.ts): the
// authorization URL, the code exchanged for tokens, and access tokens from the refresh token.
// The state is ours (signed-state.ts): it is checked before anything here runs.
import * as oauth from 'oauth4webapi';
import type { MailProviderSettings } from '../../../config.js';
import type { MailProvider } from '../../../db/schema.js';
import { EgressFailed, EgressRefused } from '../../../net/egress-errors.js';
import type { EgressClient } from '../../../net/egress.js';
import { egressFetch } from './egress-fetch.js';
import { MailError } from './mail-errors.js';

/** What each provider is asked for: read-only mail, and a refresh token. */
const SCOPES: Record<MailProvider, string> = {
  microsoft: 'offline_access https://graph.microsoft.com/User.Read https://graph.microsoft.com/Mail.Read',
  google: 'https://www.googleapis.com/auth/gmail.readonly',
};

/** Google hands out a refresh token only with access_type=offline, and again on re-consent only with prompt=consent. */
const EXTRA_PARAMETERS: Record<MailProvider, Record<string, string>> = {
  microsoft: { response_mode: 'query' },
  google: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
};

export interface TokenSet {
  accessToken: string;
  /** undefined when the provider sent none (or an empty one): the stored one stays. */
  refreshToken: string | undefined;
}

export class MailOAuthClient {
  private readonly server: oauth.AuthorizationServer;
  private readonly client: oauth.Client;
  private readonly authentication: oauth.ClientAuth;

  constructor(
    readonly provider: MailProvider,
    private readonly settings: MailProviderSettings & { clientId: string; clientSecret: string },
    private readonly egress: EgressClient,
  ) {
    // Google names itself in the callback's `iss`; a configured endpoint elsewhere (a test's fake) is its own issuer.
    const issuer = settings.authorizeUrl.host === 'accounts.google.com' ? 'https://accounts.google.com' : settings.authorizeUrl.origin;
    this.server = { issuer, authorization_endpoint: settings.authorizeUrl.href, token_endpoint: settings.tokenUrl.href };
    this.client = { client_id: settings.clientId };
    this.authentication = oauth.ClientSecretPost(settings.clientSecret);
  }

  static newVerifier(): string {
    return oauth.generateRandomCodeVerifier();
  }

  /** `loginHint`, the mailbox expected, preselects that account on the provider's sign-in page (both providers read `login_hint`). */
  async authorizationUrl(redirectUri: string, state: string, verifier: string, loginHint: string): Promise<URL> {
    const url = new URL(this.settings.authorizeUrl.href);
    url.searchParams.set('client_id', this.settings.clientId);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('scope', SCOPES[this.provider]);
    url.searchParams.set('state', state);
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set('code_challenge_method', 'S256');
    url.searchParams.set('login_hint', loginHint);
    for (const [name, value] of Object.entries(EXTRA_PARAMETERS[this.provider])) url.searchParams.set(name, value);
    return url;
  }

  /** The code of a callback (its state already verified) exchanged for tokens. */
  async exchangeCode(callback: URLSearchParams, state: string, redirectUri: string, verifier: string): Promise<TokenSet> {
    return this.tokens(async () => {
      const parameters = oauth.validateAuthResponse(this.server, this.client, callback, state);
      const response = await oauth.authorizationCodeGrantRequest(this.server, this.client, this.authentication, parameters, redirectUri, verifier, this.options());
      return oauth.processAuthorizationCodeResponse(this.server, this.client, response);
    });
  }

  /** A fresh access token; the refresh token when the provider rotated it. */
  async refresh(refreshToken: string, signal?: AbortSignal): Promise<TokenSet> {
    return this.tokens(async () => {
      const response = await oauth.refreshTokenGrantRequest(this.server, this.client, this.authentication, refreshToken, this.options(signal));
      return oauth.processRefreshTokenResponse(this.server, this.client, response);
    }, signal);
  }

  private options(signal?: AbortSignal) {
    return {
      [oauth.customFetch]: egressFetch(this.egress, signal),
      // http only where configured so: a fake provider on loopback in the tests.
      [oauth.allowInsecureRequests]: this.settings.tokenUrl.protocol === 'http:',
    };
  }

  private async tokens(call: () => Promise<oauth.TokenEndpointResponse>, signal?: AbortSignal): Promise<TokenSet> {
    let result: oauth.TokenEndpointResponse;
    try {
      result = await call();
    } catch (error) {
      if (signal?.aborted) throw error;
      throw tokenError(error);
    }
    const refreshToken = typeof result.refresh_token === 'string' && result.refresh_token !== '' ? result.refresh_token : undefined;
    return { accessToken: result.access_token, refreshToken };
  }
}

/** A token endpoint's refusal as a MailError; invalid_grant (revoked, expired or already used) means authorize again. */
function tokenError(error: unknown): MailError {
  if (error instanceof MailError) return error;
  if (error instanceof oauth.ResponseBodyError) {
    const status = error.status;
    const code = status >= 500 ? 'upstream' : status === 429 ? 'throttled' : 'auth';
    return new MailError(code, `The token endpoint refused: ${error.error}${status ? ` (HTTP ${status})` : ''}`, status, error.error === 'invalid_grant');
  }
  if (error instanceof EgressFailed || error instanceof EgressRefused) return new MailError('unreachable', `No token: ${error.message}`);
  if (error instanceof oauth.WWWAuthenticateChallengeError) return new MailError('auth', `The token endpoint refused the client (HTTP ${error.status})`, error.status);
  const message = error instanceof Error ? error.message : String(error);
  return new MailError('bad_response', `The token endpoint answered something unusable: ${message}`.slice(0, 300));
}

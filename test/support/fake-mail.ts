// Fake mail providers on loopback, one listener for both: an OAuth 2 authorization server per provider
// (`/microsoft/…`, `/google/…`: consent hands out a code bound to the PKCE challenge and redirect URI;
// the token endpoint checks the verifier, and refreshes, rotates or refuses refresh tokens), Graph's
// mail (`/graph/…`: `/me`, folder message delta, attachments) and the Gmail API (`/gmail/…`: profile,
// messages by label, history, message and attachment reads). Each token belongs to the account that
// consented (by default the box's own address; a test may sign in as another): `/me` and the profile
// name that account. Tests change the mailboxes, make calls
// fail with a status (and Retry-After), expire delta links and history ids, hold an attachment until
// released, and count what was fetched.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeGmailBox, FakeGraphBox } from './fake-mailboxes.js';
import type { Failure } from './fake-upstream.js';
import { startListener, type Listener } from './listeners.js';

export const MAIL_CLIENT = { id: 'mail-client-id', secret: 'mail-client-secret-0123456789' };

type Provider = 'microsoft' | 'google';

interface Grant {
  provider: Provider;
  challenge: string;
  redirectUri: string;
  /** The account that signed in and consented. */
  account: string;
}

export class FakeMail {
  private listener!: Listener;
  readonly graph = new FakeGraphBox();
  readonly gmail = new FakeGmailBox();
  private readonly codes = new Map<string, Grant>();
  private readonly refreshTokens = new Map<string, { provider: Provider; account: string }>();
  /** Access token → the account it belongs to. */
  private readonly accessTokens = new Map<string, string>();
  tokenRequests: URLSearchParams[] = [];
  /** The next code exchange answers without a refresh token (as providers do on re-consent). */
  omitRefreshToken = false;
  /** Refreshes hand out a new refresh token (revoking the one presented), or an empty one, while set. */
  rotateRefreshTokens: 'new' | 'empty' | undefined;
  /** Every API call answers 401 while true (the token no longer works). */
  apiUnauthorized = false;
  tokenFailure: Failure | undefined;
  /** Who signs in on the provider's page when a browser opens it (GET /<provider>/authorize); by default the box's own address. */
  browserAccount: string | undefined;

  async start(): Promise<this> {
    this.listener = await startListener((request, response, body) => void this.serve(request, response, body));
    return this;
  }

  get origin(): string {
    return this.listener.origin;
  }

  get port(): number {
    return this.listener.port;
  }

  close(): Promise<void> {
    this.graph.release();
    this.gmail.release();
    return this.listener.close();
  }

  env(publicBaseUrl: string): Record<string, string> {
    return {
      EGRESS_ALLOWED_HOSTS: `127.0.0.1:${this.port}`,
      PUBLIC_BASE_URL: publicBaseUrl,
      EMAIL_MICROSOFT_CLIENT_ID: MAIL_CLIENT.id,
      EMAIL_MICROSOFT_CLIENT_SECRET: MAIL_CLIENT.secret,
      EMAIL_MICROSOFT_AUTHORIZE_URL: `${this.origin}/microsoft/authorize`,
      EMAIL_MICROSOFT_TOKEN_URL: `${this.origin}/microsoft/token`,
      EMAIL_MICROSOFT_GRAPH_URL: `${this.origin}/graph/v1.0`,
      EMAIL_GOOGLE_CLIENT_ID: MAIL_CLIENT.id,
      EMAIL_GOOGLE_CLIENT_SECRET: MAIL_CLIENT.secret,
      EMAIL_GOOGLE_AUTHORIZE_URL: `${this.origin}/google/authorize`,
      EMAIL_GOOGLE_TOKEN_URL: `${this.origin}/google/token`,
      EMAIL_GOOGLE_GMAIL_URL: `${this.origin}/gmail/gmail/v1`,
    };
  }

  /**
   * Someone signs in on the provider's page and consents: answers the callback's query (code and state)
   * as the browser would bring it. `as` is the account signed in; by default the box's own address.
   */
  consent(authorizationUrl: string, as?: string): string {
    const url = new URL(authorizationUrl);
    const provider = url.pathname.split('/')[1] as Provider;
    const code = randomBytes(12).toString('hex');
    const account = as ?? (provider === 'microsoft' ? this.graph.address : this.gmail.address);
    this.codes.set(code, { provider, challenge: url.searchParams.get('code_challenge') ?? '', redirectUri: url.searchParams.get('redirect_uri') ?? '', account });
    return `code=${code}&state=${encodeURIComponent(url.searchParams.get('state') ?? '')}`;
  }

  /** Every refresh token handed out so far is refused from now on (invalid_grant). */
  revokeRefreshTokens(): void {
    this.refreshTokens.clear();
  }

  private issue(provider: Provider, account: string, withRefresh: boolean): Record<string, unknown> {
    const access = `access-${randomBytes(8).toString('hex')}`;
    this.accessTokens.set(access, account);
    const tokens: Record<string, unknown> = { token_type: 'Bearer', expires_in: 3599, access_token: access, scope: 'mail.read' };
    if (withRefresh) {
      const refresh = `refresh-${randomBytes(8).toString('hex')}`;
      this.refreshTokens.set(refresh, { provider, account });
      tokens.refresh_token = refresh;
    }
    return tokens;
  }

  private token(provider: Provider, form: URLSearchParams, json: (status: number, value: unknown) => void): void {
    this.tokenRequests.push(form);
    if (form.get('client_id') !== MAIL_CLIENT.id || form.get('client_secret') !== MAIL_CLIENT.secret) return json(401, { error: 'invalid_client' });
    if (form.get('grant_type') === 'authorization_code') {
      const grant = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? '');
      const challenge = createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url');
      if (!grant || grant.provider !== provider || grant.challenge !== challenge || grant.redirectUri !== form.get('redirect_uri')) return json(400, { error: 'invalid_grant' });
      const tokens = this.issue(provider, grant.account, !this.omitRefreshToken);
      this.omitRefreshToken = false;
      return json(200, tokens);
    }
    if (form.get('grant_type') === 'refresh_token') {
      const held = this.refreshTokens.get(form.get('refresh_token') ?? '');
      if (held?.provider !== provider) return json(400, { error: 'invalid_grant', error_description: 'The refresh token was revoked.' });
      // A rotated refresh token replaces the one presented, which stops working.
      if (this.rotateRefreshTokens === 'new') this.refreshTokens.delete(form.get('refresh_token') ?? '');
      const tokens = this.issue(provider, held.account, this.rotateRefreshTokens === 'new');
      if (this.rotateRefreshTokens === 'empty') tokens.refresh_token = '';
      return json(200, tokens);
    }
    json(400, { error: 'unsupported_grant_type' });
  }

  private async serve(request: IncomingMessage, response: ServerResponse, body: Buffer): Promise<void> {
    const url = new URL(request.url ?? '/', this.origin);
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      void response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
    // A browser on the provider's page: consent is given at once, and the browser goes back to the callback.
    if (request.method === 'GET' && /^\/(microsoft|google)\/authorize$/.test(url.pathname)) {
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.search = this.consent(url.href, this.browserAccount);
      return void response.writeHead(302, { location: back.href }).end();
    }
    const token = url.pathname.match(/^\/(microsoft|google)\/token$/);
    if (request.method === 'POST' && token) {
      const failure = this.tokenFailure;
      if (failure && failure.times-- > 0) return json(failure.status, { error: 'temporarily_unavailable' });
      return this.token(token[1] as Provider, new URLSearchParams(body.toString('utf8')), json);
    }
    const account = this.accessTokens.get((request.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (this.apiUnauthorized || account === undefined) return json(401, { error: { code: 'InvalidAuthenticationToken', message: 'Access token has expired or is not yet valid.' } });
    if (url.pathname.startsWith('/graph/v1.0/')) return this.graph.serve(url, url.pathname.slice('/graph/v1.0'.length), this.origin + '/graph/v1.0', account, json);
    if (url.pathname.startsWith('/gmail/gmail/v1/')) return this.gmail.serve(url, url.pathname.slice('/gmail/gmail/v1'.length), account, json);
    json(404, { error: { code: 'NotFound', message: `No route ${url.pathname}` } });
  }
}

// Linking a mailbox to a corpus through the provider's OAuth 2 authorization-code flow with PKCE.
// `authorize` checks the caller may write to the corpus, keeps a pending authorization (its nonce, the
// PKCE verifier sealed: it never reaches the browser) and answers the provider's URL with a signed
// state that expires and names the mailbox expected (the one given, or the caller's e-mail).
// `complete` is the public callback: it accepts nothing but a valid state (signed here, not expired,
// its authorization unused, which it marks used at once, so a replay is refused), exchanges the code
// with the verifier, and links only the expected mailbox: whoever opens the URL signs in at the
// provider, so without this anyone handed the link would put their own mailbox into the caller's
// corpus (or be phished into it). It then stores the refresh token sealed on the mailbox (created,
// or updated when the same mailbox is authorized again: a missing refresh token never replaces the
// stored one, and a sync running meanwhile is superseded: see src/modules/sources/adapters/mailbox.ts), then queues its first
// sync. Every refusal is a 4xx before anything is written.
import { now } from '../../clock.js';
import { DEFAULT_FOLDERS, MailError, MailOAuthClient, normalizeAddress, StateSigner, type MailProviders, type StatePayload, type TokenSet } from '../sources/index.js';
import { BadRequest, Forbidden, UpstreamError } from '../../errors.js';
import type { UnitOfWork } from '../../repositories.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import type { Actor } from '../auth/actor.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import { isOrganizationAdmin } from '../corpora/corpus.policy.js';
import type { AuthorizationView, AuthorizeInput, CallbackInput, MailboxView } from './email-indexing.schemas.js';
import { refreshTokenColumns } from './mailbox-secrets.js';
import { foldersOf } from './mailbox-columns.js';
import { presentMailbox } from './mailbox.presenter.js';
import type { EmailAuthorizationRow } from './mailboxes.repo.js';
import { applySchedule, queueMailboxSync } from './mailboxes.service.js';

/** How long the owner of a mailbox has to consent. */
export const AUTHORIZATION_MINUTES = 10;

const STATE_POINTER = [{ pointer: '/querystring/state', message: 'must be the state of an authorization this server started' }];

export class EmailAuthorizationService {
  constructor(
    private readonly store: UnitOfWork,
    private readonly corpora: CorporaService,
    private readonly secrets: SecretBox,
    private readonly providers: MailProviders,
    private readonly signer: StateSigner,
    private readonly onEnqueued: () => void,
  ) {}

  async authorize(actor: Actor, input: AuthorizeInput): Promise<AuthorizationView> {
    await this.corpora.requireCorpus(actor, input.corpus_id, 'write');
    if (!this.providers.configured(input.provider)) {
      throw new BadRequest(`E-mail indexing with ${input.provider} is not configured on this server`, [{ pointer: '/body/provider', message: 'no client id and secret are set for it' }]);
    }
    const mailbox = normalizeAddress(input.mailbox ?? actor.email);
    // Naming another person's mailbox is how a link gets sent to them to consent into a corpus they do
    // not see: only the organization's owners and admins may (a shared mailbox, a team's inbox).
    if (mailbox !== normalizeAddress(actor.email) && !isOrganizationAdmin(actor)) {
      throw new Forbidden('Only the organization’s owners and admins may link a mailbox other than their own e-mail');
    }
    const at = now();
    const expiresAt = Date.parse(at) + AUTHORIZATION_MINUTES * 60_000;
    const nonce = StateSigner.newNonce();
    const verifier = MailOAuthClient.newVerifier();
    const sealed = this.secrets.seal(verifier);
    await this.store.repos.mailboxes.dropExpiredAuthorizations(new Date(Date.parse(at) - 24 * 3_600_000).toISOString());
    await this.store.repos.mailboxes.insertAuthorization({
      organization_id: actor.organizationId,
      user_id: actor.userId,
      corpus_id: input.corpus_id,
      provider: input.provider,
      folders: JSON.stringify(input.folders ?? DEFAULT_FOLDERS[input.provider]),
      schedule_minutes: input.schedule_minutes ?? null,
      schedule_given: input.schedule_minutes === undefined ? 0 : 1,
      nonce,
      verifier_sealed: sealed.sealed,
      verifier_key_id: sealed.keyId,
      expires_on: new Date(expiresAt).toISOString(),
      created_on: at,
    });
    const state = this.signer.sign(nonce, expiresAt, mailbox, input.return_to);
    const url = await this.providers.oauth(input.provider).authorizationUrl(this.providers.redirectUri, state, verifier, mailbox);
    return { authorization_url: url.href, redirect_uri: this.providers.redirectUri, expires_on: new Date(expiresAt).toISOString(), mailbox };
  }

  async complete(query: CallbackInput, callback: URLSearchParams): Promise<MailboxView> {
    const { authorization, state } = await this.useState(query.state);
    if (query.error !== undefined) {
      throw new BadRequest(`The mailbox’s owner or the provider refused the authorization: ${query.error.slice(0, 100)}`, [{ pointer: '/querystring/error', message: query.error.slice(0, 100) }]);
    }
    if (query.code === undefined || query.code === '') throw new BadRequest('The callback carries no authorization code', [{ pointer: '/querystring/code', message: 'required' }]);
    const verifier = this.secrets.open({ sealed: authorization.verifier_sealed, keyId: authorization.verifier_key_id });
    const oauth = this.providers.oauth(authorization.provider);
    const tokens = await this.upstream(() => oauth.exchangeCode(callback, query.state!, this.providers.redirectUri, verifier));
    const api = this.providers.api(authorization.provider, tokens.accessToken, { wait: async () => undefined, maxRetries: 0, maxWaitMs: 0, maxBytes: 256 * 1024, now: () => Date.now() });
    const identity = await this.upstream(() => this.providers.identity(authorization.provider, api));
    if (!this.signer.expects(state, identity.addresses)) {
      // The tokens are dropped unused: nothing of that account is kept.
      throw new BadRequest(
        `The account signed in at the provider (${identity.address}) is not the mailbox this authorization was started for: start it again and sign in with that mailbox, or name this one as \`mailbox\` when starting`,
        [{ pointer: '/querystring/code', message: 'granted by another mailbox than the one expected' }],
      );
    }
    const view = await this.link(authorization, identity.address, tokens);
    this.onEnqueued();
    return view;
  }

  /** The page of this server the authorization named to return to, for any state signed here (even expired or used). */
  returnPathOf(state: string | undefined): string | undefined {
    return state === undefined ? undefined : this.signer.returnPathOf(state);
  }

  /** The pending authorization a state names, marked used; a 400 for a missing, forged, expired or replayed state. */
  private async useState(state: string | undefined): Promise<{ authorization: EmailAuthorizationRow; state: StatePayload }> {
    if (state === undefined || state === '') throw new BadRequest('The callback carries no state', STATE_POINTER);
    const at = now();
    const payload = this.signer.verify(state, Date.parse(at));
    if (payload === 'expired') throw new BadRequest(`The authorization expired (it is good for ${AUTHORIZATION_MINUTES} minutes): start it again`, STATE_POINTER);
    if (typeof payload === 'string') throw new BadRequest('The state was not issued by this server', STATE_POINTER);
    const authorization = await this.store.repos.mailboxes.findAuthorization(payload.nonce);
    if (!authorization) throw new BadRequest('The state names no authorization of this server', STATE_POINTER);
    if (Date.parse(authorization.expires_on) <= Date.parse(at)) throw new BadRequest('The authorization expired: start it again', STATE_POINTER);
    if (!(await this.store.repos.mailboxes.useAuthorization(authorization.id, at))) throw new BadRequest('The authorization was already used: start it again', STATE_POINTER);
    return { authorization, state: payload };
  }

  /** A refused code is the caller's (400); a provider that fails or is out of reach, a 502. */
  private async upstream<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof MailError)) throw error;
      if (error.code === 'auth' || error.code === 'forbidden') throw new BadRequest(`The provider refused the authorization: ${error.message}`);
      throw new UpstreamError(`The provider could not complete the authorization: ${error.message}`);
    }
  }

  /** Creates the mailbox, or updates the one already linked to that corpus; queues a sync; all in one transaction. */
  private async link(authorization: EmailAuthorizationRow, address: string, tokens: TokenSet): Promise<MailboxView> {
    const at = now();
    const { organization_id: organizationId, corpus_id: corpusId, provider } = authorization;
    return this.store.transaction(async (repos) => {
      const existing = await repos.mailboxes.findLinked(organizationId, corpusId, provider, address);
      let mailboxId: number;
      if (existing) {
        mailboxId = existing.id;
        const folders = foldersOf(authorization.folders);
        const foldersChanged = JSON.stringify(folders) !== existing.folders;
        await repos.mailboxes.update(organizationId, mailboxId, {
          folders: JSON.stringify(folders),
          // Providers leave the refresh token out on a repeated consent: the stored one then stays.
          ...(tokens.refreshToken !== undefined ? refreshTokenColumns(this.secrets, tokens.refreshToken) : {}),
          authorization_status: 'active',
          // Other labels make Gmail's next sync a full listing (Graph keeps a position per folder).
          ...(foldersChanged && provider === 'google' ? { sync_cursor: '{}' } : {}),
          // A sync begun before this writes nothing more (its cursor, token, outcome): it ends and queues one anew.
          generation: existing.generation + 1,
          modified_on: at,
        });
        if (authorization.schedule_given === 1 && authorization.schedule_minutes !== existing.schedule_minutes) {
          await applySchedule(repos, existing, authorization.schedule_minutes, at);
        }
      } else {
        if (tokens.refreshToken === undefined) {
          throw new UpstreamError('The provider granted no refresh token: remove the application’s access in the account’s settings and authorize again');
        }
        ({ id: mailboxId } = await repos.mailboxes.insert({
          organization_id: organizationId,
          corpus_id: corpusId,
          provider,
          address,
          folders: authorization.folders,
          // The first sync is queued now; its end queues the next by the schedule.
          schedule_minutes: authorization.schedule_minutes,
          ...refreshTokenColumns(this.secrets, tokens.refreshToken),
          created_on: at,
          created_by: authorization.user_id,
          modified_on: at,
        }));
      }
      await queueMailboxSync(repos, organizationId, mailboxId, at);
      const row = await repos.mailboxes.find(organizationId, mailboxId);
      return presentMailbox(row!);
    });
  }
}

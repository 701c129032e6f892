// The two mail providers as the settings configure them: each one's OAuth client, its API, its
// reader of changes, and the identity of the mailbox a token opens.
import type { EmailIndexingSettings, MailProviderSettings } from '../../../config.js';
import type { MailProvider } from '../../../db/schema.js';
import type { EgressClient } from '../../../net/egress.js';
import { GmailReader } from './gmail.js';
import { GraphMailReader } from './graph-mail.js';
import { MailApi, type MailApiOptions } from './mail-api.js';
import { MailError } from './mail-errors.js';
import type { MailReader } from './mail-reader.js';
import { MailOAuthClient } from './oauth-client.js';
import { normalizeAddress } from './signed-state.js';

export const DEFAULT_FOLDERS: Record<MailProvider, string[]> = { microsoft: ['inbox'], google: ['INBOX'] };

const API_NAMES: Record<MailProvider, string> = { microsoft: 'Graph', google: 'Gmail' };

export const CALLBACK_PATH = '/api/email-indexing/callback/';

type ConfiguredProvider = MailProviderSettings & { clientId: string; clientSecret: string };

export class MailProviders {
  readonly redirectUri: string;

  constructor(
    private readonly settings: EmailIndexingSettings,
    private readonly egress: EgressClient,
  ) {
    this.redirectUri = new URL(CALLBACK_PATH, settings.publicBaseUrl.href.endsWith('/') ? settings.publicBaseUrl : `${settings.publicBaseUrl.href}/`).href;
  }

  /** The provider's settings when its application is configured (client id and secret); undefined otherwise. */
  configured(provider: MailProvider): ConfiguredProvider | undefined {
    const settings = this.settings[provider];
    if (settings.clientId === undefined || settings.clientSecret === undefined) return undefined;
    return settings as ConfiguredProvider;
  }

  oauth(provider: MailProvider): MailOAuthClient {
    const settings = this.configured(provider);
    if (!settings) throw new MailError('auth', `E-mail indexing with ${provider} is not configured on this server`);
    return new MailOAuthClient(provider, settings, this.egress);
  }

  api(provider: MailProvider, accessToken: string, options: MailApiOptions): MailApi {
    return new MailApi(this.egress, this.settings[provider].apiUrl, accessToken, options, API_NAMES[provider]);
  }

  reader(provider: MailProvider, api: MailApi, folders: readonly string[], maxAttachmentBytes: number): MailReader {
    return provider === 'microsoft' ? new GraphMailReader(api, folders, maxAttachmentBytes) : new GmailReader(api, folders, maxAttachmentBytes);
  }

  /**
   * Who the token belongs to, as the provider itself names the signed-in account: Graph `/me` (its
   * `mail`, else its `userPrincipalName`, is the mailbox's address; either may be the one expected),
   * Gmail's profile (`emailAddress`). Read through the API client, so over the egress client.
   */
  async identity(provider: MailProvider, api: MailApi): Promise<MailboxIdentity> {
    const names =
      provider === 'microsoft'
        ? await api.getJson<{ mail?: unknown; userPrincipalName?: unknown }>(`${api.base}/me?$select=mail,userPrincipalName`).then((me) => [me.mail, me.userPrincipalName])
        : await api.getJson<{ emailAddress?: unknown }>(`${api.base}/users/me/profile`).then((profile) => [profile.emailAddress]);
    const addresses = names.filter((name): name is string => typeof name === 'string' && name.trim() !== '' && name.length <= 320).map(normalizeAddress);
    if (addresses.length === 0) throw new MailError('bad_response', `${API_NAMES[provider]} named no mailbox address`);
    return { address: addresses[0]!, addresses: [...new Set(addresses)] };
  }
}

export interface MailboxIdentity {
  /** The mailbox's address, lower-cased: what the mailbox is stored and shown as. */
  address: string;
  /** Every address the provider names for the account (Graph: mail and user principal name). */
  addresses: string[];
}

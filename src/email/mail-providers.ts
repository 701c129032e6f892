// The two mail providers as the settings configure them: each one's OAuth client, its API, its
// reader of changes, and the address of the mailbox a token opens.
import type { EmailIndexingSettings, MailProviderSettings } from '../config.js';
import type { MailProvider } from '../db/schema.js';
import type { EgressClient } from '../net/egress.js';
import { GmailReader } from './gmail.js';
import { GraphMailReader } from './graph-mail.js';
import { MailApi, type MailApiOptions } from './mail-api.js';
import { MailError } from './mail-errors.js';
import type { MailReader } from './mail-reader.js';
import { MailOAuthClient } from './oauth-client.js';

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

  /** The address of the mailbox the token opens (Graph `/me`, Gmail's profile). */
  async address(provider: MailProvider, api: MailApi): Promise<string> {
    const found =
      provider === 'microsoft'
        ? await api.getJson<{ mail?: string | null; userPrincipalName?: string }>(`${api.base}/me?$select=mail,userPrincipalName`).then((me) => me.mail || me.userPrincipalName)
        : await api.getJson<{ emailAddress?: string }>(`${api.base}/users/me/profile`).then((profile) => profile.emailAddress);
    if (typeof found !== 'string' || found.trim() === '' || found.length > 320) throw new MailError('bad_response', `${API_NAMES[provider]} named no mailbox address`);
    return found.trim().toLowerCase();
  }
}

// Helpers of the e-mail indexing tests: link a mailbox the way a browser would (authorize, consent on
// the fake provider, callback without credentials), wait for its sync, and read the corpus.
import { expect } from 'vitest';
import type { App } from '../../src/app.js';
import { createCorpus } from './corpora.js';
import type { FakeMail } from './fake-mail.js';
import type { TestUser } from './factories.js';
import { request } from './http.js';
import { pollUntil } from './poll.js';

export const PUBLIC_BASE_URL = 'https://agents.example.com';

export async function linkMailbox(
  app: App,
  fake: FakeMail,
  user: TestUser,
  provider: 'microsoft' | 'google',
  options: { corpusId?: number; folders?: string[]; schedule_minutes?: number | null } = {},
) {
  const corpusId = options.corpusId ?? ((await createCorpus(user)).id as number);
  const authorize = await user.api.post('/api/email-indexing/authorize/', {
    provider,
    corpus_id: corpusId,
    // The fake's box is not the user's own address: it is named as the mailbox expected.
    mailbox: provider === 'microsoft' ? fake.graph.address : fake.gmail.address,
    ...(options.folders ? { folders: options.folders } : {}),
    ...(options.schedule_minutes !== undefined ? { schedule_minutes: options.schedule_minutes } : {}),
  });
  expect(authorize.status, authorize.text).toBe(200);
  const callback = await request(app, 'GET', `/api/email-indexing/callback/?${fake.consent(authorize.body.authorization_url)}`);
  expect(callback.status, callback.text).toBe(200);
  return { mailboxId: callback.body.id as number, corpusId, callback };
}

/** Polls the mailbox (bounded) until its sync ends. */
export async function waitForMailboxSync(user: TestUser, mailboxId: number) {
  return pollUntil(
    async () => {
      const reply = await user.api.get(`/api/v2/email-indexing/mailboxes/${mailboxId}`);
      expect(reply.status, reply.text).toBe(200);
      return reply.body.data;
    },
    (view) => view.last_sync.status === 'succeeded' || view.last_sync.status === 'failed',
    (view) => `Sync still ${view.last_sync.status}`,
  );
}

export async function syncMailbox(user: TestUser, mailboxId: number) {
  const reply = await user.api.post(`/api/v2/email-indexing/mailboxes/${mailboxId}/sync`);
  expect(reply.status, reply.text).toBe(202);
  return waitForMailboxSync(user, mailboxId);
}

/** The corpus's live documents, sorted by name: [source, type]. */
export async function mailDocuments(user: TestUser, corpusId: number): Promise<string[][]> {
  const reply = await user.api.get(`/api/v2/corpora/${corpusId}/documents?page_size=100`);
  expect(reply.status, reply.text).toBe(200);
  const live = (reply.body.data.items as { source: string; type: string; is_deleted: boolean; upload_from: string }[]).filter((d) => !d.is_deleted);
  for (const document of live) expect(document.upload_from).toBe('email');
  return live.map((d) => [d.source, d.type]).sort((a, b) => a[0]!.localeCompare(b[0]!));
}

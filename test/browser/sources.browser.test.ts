// The organization's sources in a real browser against loopback fakes of Microsoft's identity
// platform and Graph (a document library) and of a mail provider (OAuth consent page, token endpoint,
// Graph mail): connect a library, sync it and see its counts change, see a failed sync's error,
// remove it; link a mailbox through the provider's consent, walked in the browser and ending back on
// the sources page with what became of it, sync it, see a refused consent, remove it; the page at 390 px.
import { createServer } from 'node:net';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { createCorpus } from '../support/corpora.js';
import { createUser } from '../support/factories.js';
import { CLIENT_ID, CLIENT_SECRET, DRIVE_ID, FakeGraph, TENANT } from '../support/fake-graph.js';
import { FakeMail } from '../support/fake-mail.js';
import { CHROMIUM_PATH } from './support/chromium.js';
import { BROWSER_TEST, expectAccessible, overflowsSideways, PHONE, PROCESSING_MS, signIn, useConsoleBrowser } from './support/console-browser.js';

/** A loopback port free now: the server listens there, so that the provider can send the browser back to it. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The card of a source, found by its heading. */
function sourceCard(page: Page, title: string): Locator {
  return page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title, level: 3 }) });
}

/** Waits until the card's last sync shows this count (Added, Updated, Removed, Failed). */
async function expectCount(card: Locator, label: string, value: number): Promise<void> {
  await card.locator('.sync-counts > div').filter({ hasText: new RegExp(`^${label}${value}$`) }).waitFor({ timeout: PROCESSING_MS });
}

async function choose(page: Page, scope: Locator, label: string, option: string): Promise<void> {
  await scope.getByRole('button', { name: new RegExp(label) }).click();
  await page.getByRole('option', { name: option }).click();
}

async function openSources(page: Page): Promise<void> {
  await page.goto('/organization/sources');
  await page.getByRole('heading', { name: 'Sources', level: 1 }).waitFor();
}

const graph = new FakeGraph();
const mail = new FakeMail();
const env: Record<string, string> = {};

beforeAll(async () => {
  await graph.start();
  await mail.start();
  const publicBaseUrl = `http://127.0.0.1:${await freePort()}`;
  Object.assign(env, mail.env(publicBaseUrl), {
    EGRESS_ALLOWED_HOSTS: `127.0.0.1:${graph.port},127.0.0.1:${mail.port}`,
    CONNECTOR_LOGIN_URL: graph.origin,
    CONNECTOR_GRAPH_URL: `${graph.origin}/v1.0`,
  });
});
afterAll(async () => {
  await graph.close();
  await mail.close();
});

describe.skipIf(CHROMIUM_PATH === undefined)('console: sources', BROWSER_TEST, () => {
  const browser = useConsoleBrowser(env);

  it('connects a document library, syncs it with its counts, shows a failed sync, removes it', async () => {
    const server = browser.server();
    const corpus = await createCorpus(server.admin, { name: 'Policies' });
    const leave = graph.add('', 'leave.txt', 'Parental leave lasts sixteen weeks.');
    graph.add('', 'travel.txt', 'Trains are preferred to planes.');
    const { page } = await browser.open();
    await signIn(page, server.email, server.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organization' }).click();
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Sources' }).click();
    await page.getByRole('heading', { name: 'Sources', level: 1 }).waitFor();

    // The feature is off by default: said, and the button waits.
    await page.getByText('Document-library indexing is off for this organization').waitFor();
    expect(await page.getByRole('button', { name: 'Add a document library' }).isDisabled()).toBe(true);
    await expectAccessible(page, 'the sources page with the feature off');
    expect((await server.admin.api.put('/api/v2/feature-flags/document-library-index', { enabled: true })).status).toBe(200);
    await openSources(page);
    await page.getByRole('button', { name: 'Add a document library' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a document library' });
    await dialog.getByLabel('Name').fill('HR library');
    await choose(page, dialog, 'Corpus', 'Policies');
    await dialog.getByLabel('Directory (tenant) id').fill(TENANT);
    await dialog.getByLabel('Application (client) id').fill(CLIENT_ID);
    await dialog.getByLabel('Client secret').fill(CLIENT_SECRET);
    await dialog.getByLabel('Drive id').fill(DRIVE_ID);
    await expectAccessible(page, 'the add-a-library dialog');
    await dialog.getByRole('button', { name: 'Add library' }).click();
    await dialog.waitFor({ state: 'detached' });

    const card = sourceCard(page, 'HR library');
    await card.getByText('Never synced').waitFor();
    await card.getByRole('link', { name: 'Policies' }).waitFor();
    await card.getByRole('button', { name: 'Sync now HR library' }).click();
    await card.getByText('Synced', { exact: true }).waitFor({ timeout: PROCESSING_MS });
    await expectCount(card, 'Added', 2);
    await expectAccessible(page, 'the sources page with a synced library');

    // A file changed and one added: the next sync's counts say so.
    graph.change(leave, 'Parental leave lasts twenty weeks.');
    graph.add('Guides', 'parking.txt', 'Book a parking space the day before.');
    await card.getByRole('button', { name: 'Sync now HR library' }).click();
    await expectCount(card, 'Updated', 1);
    await expectCount(card, 'Added', 1);

    // Graph refuses: the sync fails, and the card says why.
    graph.deltaFailure = { status: 403, times: 1 };
    await card.getByRole('button', { name: 'Sync now HR library' }).click();
    await card.getByText('Sync failed', { exact: true }).waitFor({ timeout: PROCESSING_MS });
    await card.getByText(/The sync failed \(forbidden\)/).waitFor();
    await expectAccessible(page, 'a library whose sync failed');

    await card.getByRole('button', { name: 'Remove HR library' }).click();
    const question = page.getByRole('alertdialog', { name: 'Remove HR library?' });
    await question.getByRole('button', { name: 'Remove document library' }).click();
    await page.getByText('No document library is connected yet.').waitFor();
    expect((await server.admin.api.get(`/api/v2/corpora/${corpus.id}`)).status).toBe(200);
  });

  it('links a mailbox through the provider’s consent and comes back to the sources page; syncs, refuses another account, removes', async () => {
    const server = browser.server();
    await createCorpus(server.admin, { name: 'Inbox archive' });
    mail.graph.add('inbox', 'Quarterly report', 'The numbers are up this quarter.');
    const { page } = await browser.open();
    await signIn(page, server.email, server.password);
    await openSources(page);

    const link = async () => {
      await page.getByRole('button', { name: 'Link a mailbox' }).click();
      const dialog = page.getByRole('dialog', { name: 'Link a mailbox' });
      await choose(page, dialog, 'Corpus', 'Inbox archive');
      await dialog.getByLabel('Mailbox').fill(mail.graph.address);
      return dialog;
    };
    const dialog = await link();
    await expectAccessible(page, 'the link-a-mailbox dialog');
    // Off to the provider's consent page, which sends the browser to the server's callback, which sends it back here.
    await dialog.getByRole('button', { name: 'Continue to the provider' }).click();
    await page.getByText(`Mailbox linked: ${mail.graph.address}.`).waitFor();
    expect(new URL(page.url()).pathname).toBe('/organization/sources');
    const card = sourceCard(page, mail.graph.address);
    await card.getByText('Synced', { exact: true }).waitFor({ timeout: PROCESSING_MS });
    await expectCount(card, 'Added', 1);
    await expectAccessible(page, 'the sources page after linking a mailbox');
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByText('Mailbox linked').waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('');

    // New mail, then "Sync now": the counts follow.
    mail.graph.add('inbox', 'Holiday plan', 'The office closes for a week in August.');
    mail.graph.add('inbox', 'Welcome', 'Welcome to the team.');
    await card.getByRole('button', { name: `Sync now ${mail.graph.address}` }).click();
    await expectCount(card, 'Added', 2);

    // Someone else signs in at the provider: back here with the reason, nothing linked.
    mail.browserAccount = 'mallory@contoso.example';
    await (await link()).getByRole('button', { name: 'Continue to the provider' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'The mailbox was not linked.' });
    await refusal.getByText(/mallory@contoso\.example\) is not the mailbox/).waitFor();
    mail.browserAccount = undefined;
    await expectAccessible(page, 'a refused consent');
    expect(await page.getByRole('list', { name: 'Mailboxes' }).getByRole('listitem').count()).toBe(1);

    await card.getByRole('button', { name: `Remove ${mail.graph.address}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove mailbox' }).click();
    await page.getByText('No mailbox is linked yet.').waitFor();
  });

  it('fits a phone’s width', async () => {
    const server = browser.server();
    expect((await server.admin.api.put('/api/v2/feature-flags/document-library-index', { enabled: true })).status).toBe(200);
    const corpus = await createCorpus(server.admin, { name: 'Phone corpus' });
    const made = await server.admin.api.post('/api/v2/connectors', {
      name: 'A library with a rather long name for a small screen',
      corpus_id: corpus.id,
      tenant_id: TENANT,
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      drive_id: DRIVE_ID,
      folder_path: 'Policies/Human resources/Leave and holidays',
    });
    expect(made.status, made.text).toBe(201);
    const { page } = await browser.open({ viewport: PHONE });
    await signIn(page, server.email, server.password);
    await openSources(page);
    const card = sourceCard(page, 'A library with a rather long name for a small screen');
    await card.getByRole('button', { name: /^Sync now / }).click();
    await card.getByText('Synced', { exact: true }).waitFor({ timeout: PROCESSING_MS });
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the sources page at 390 px');
    await page.getByRole('button', { name: 'Link a mailbox' }).click();
    await page.getByRole('dialog', { name: 'Link a mailbox' }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
  });

  it('tells a viewer, who may write to no corpus, why nothing can be added', async () => {
    const server = browser.server();
    const viewer = await createUser(server.t.app, { role: 'viewer', email: 'viewer@example.com', password: 'a-long-viewer-password' });
    const { page } = await browser.open();
    await signIn(page, viewer.email, 'a-long-viewer-password');
    await openSources(page);
    await page.getByText('you have none: create a corpus first').first().waitFor();
    expect(await page.getByRole('button', { name: 'Add a document library' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Link a mailbox' }).isDisabled()).toBe(true);
    await expectAccessible(page, 'the sources page of a viewer');
  });
});

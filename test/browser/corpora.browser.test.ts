// Corpora and their documents in a real browser, as a person uses them: create a corpus, upload
// files with their progress, watch them processed live, answer the duplicate question, see a
// failure's reason and retry it, search, tag, share, delete.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { CHROMIUM_PATH } from './support/chromium.js';
import { BROWSER_TEST, expectAccessible, overflowsSideways, PHONE, poll, PROCESSING_MS, signIn, useConsoleBrowser } from './support/console-browser.js';

const folder = mkdtempSync(join(tmpdir(), 'corpora-browser-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A file in the temporary folder, by name (a path inside it), with its content. */
function file(name: string, content: string | Buffer): string {
  const path = join(folder, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}

const LEAVE = file('leave.txt', 'Parental leave lasts sixteen weeks at full pay.\n\nAsk the people team two months ahead.');
const TRAVEL = file('travel.txt', 'Travel is booked through the travel desk. Trains are preferred to planes for trips under five hours.');
const SECURITY = file('security.txt', 'Lock your screen when you leave your desk. Report lost badges to reception at once.');
// Starts like a PDF, so the server takes it as one, but cannot be read as one: it fails while extracting.
const BROKEN_PDF = file('broken.pdf', '%PDF-1.7\nthis is not really a PDF at all\n');
// Not a kind the server processes: refused at upload (415).
const PICTURE = file('picture.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 1, 2, 3]));
// A folder with a subfolder, and a hidden file that is not meant as a document.
file('guides/onboarding.md', '# Onboarding\n\nYour first week starts with a tour of the office.\n\n- Meet your team\n- Get your laptop\n');
file('guides/facilities/parking.txt', 'Parking spaces are shared; book one the day before.');
file('guides/.DS_Store', Buffer.from([0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31]));
const GUIDES = join(folder, 'guides');

async function chooseFiles(page: Page, paths: string[]): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose files' }).click();
  await (await chooser).setFiles(paths);
}

/** The rows of the document list that show a document of this name. */
function documentRow(page: Page, name: string): Locator {
  return page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
}

/** Waits until the row says its document is indexed: the server processes it meanwhile. */
async function indexed(row: Locator): Promise<void> {
  await row.getByText('Indexed', { exact: true }).waitFor({ timeout: PROCESSING_MS });
}

/** Waits until the row says what a failure of processing says. */
async function failedWith(row: Locator, text: string | RegExp): Promise<void> {
  await row.getByText(text).waitFor({ timeout: PROCESSING_MS });
}

async function createCorpus(page: Page, name: string, description = ''): Promise<void> {
  await page.getByRole('button', { name: 'New corpus' }).click();
  const dialog = page.getByRole('dialog', { name: 'New corpus' });
  await dialog.getByLabel('Name').fill(name);
  if (description !== '') await dialog.getByLabel('Description').fill(description);
  await dialog.getByRole('button', { name: 'Create corpus' }).click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}

async function clearFinishedUploads(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Clear finished' }).click();
  await page.getByRole('button', { name: 'Clear finished' }).waitFor({ state: 'detached' });
}

describe.skipIf(CHROMIUM_PATH === undefined)('console: corpora and documents', BROWSER_TEST, () => {
  const browser = useConsoleBrowser();

  it('creates a corpus, uploads files with progress, follows them to indexed live, and works with them', async () => {
    const server = browser.server();
    const reader = await createUser(server.t.app, { role: 'member', email: 'reader@example.com' });
    const { page } = await browser.open();
    await signIn(page, server.email, server.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Corpora' }).click();
    await page.getByRole('heading', { name: 'Corpora', level: 1 }).waitFor();
    await expectAccessible(page, 'the corpora list');

    await createCorpus(page, 'Handbook', 'How we work');
    expect(new URL(page.url()).pathname).toMatch(/^\/corpora\/\d+$/);

    // Three files at once: each has its own progress, then each document goes to indexed live.
    await chooseFiles(page, [LEAVE, TRAVEL, SECURITY]);
    for (const name of ['leave.txt', 'travel.txt', 'security.txt']) {
      const progress = page.getByRole('progressbar', { name });
      await progress.waitFor();
      await poll(() => progress.getAttribute('aria-valuenow')).toBe('100');
      await poll(() => progress.getAttribute('aria-valuetext')).toBe('Uploaded');
    }
    await page.getByText('3 of 3 files uploaded').waitFor();
    for (const name of ['leave.txt', 'travel.txt', 'security.txt']) await indexed(documentRow(page, name));
    await page.getByText('Status updates live').waitFor();
    await expectAccessible(page, 'the corpus page with documents');

    // The same content again: the person is asked, and the file is sent again with their choice.
    await clearFinishedUploads(page);
    await chooseFiles(page, [LEAVE]);
    let question = page.getByRole('dialog', { name: 'This file is already in the corpus' });
    await question.waitFor();
    await expectAccessible(page, 'the duplicate question');
    await question.getByRole('button', { name: 'Keep both' }).click();
    await poll(() => page.getByRole('progressbar', { name: 'leave.txt' }).getAttribute('aria-valuetext')).toBe('Uploaded as another copy');
    await poll(() => documentRow(page, 'leave.txt').count()).toBe(2);
    await poll(() => documentRow(page, 'leave.txt').getByText('Indexed', { exact: true }).count(), PROCESSING_MS).toBe(2);

    await clearFinishedUploads(page);
    await chooseFiles(page, [LEAVE]);
    question = page.getByRole('dialog', { name: 'This file is already in the corpus' });
    await question.getByRole('button', { name: 'Skip' }).click();
    await poll(() => page.getByRole('progressbar', { name: 'leave.txt' }).getAttribute('aria-valuetext')).toBe('Skipped: already in the corpus');
    expect(await documentRow(page, 'leave.txt').count()).toBe(2);

    await clearFinishedUploads(page);
    await chooseFiles(page, [LEAVE]);
    question = page.getByRole('dialog', { name: 'This file is already in the corpus' });
    await question.getByRole('button', { name: 'Replace' }).click();
    await poll(() => page.getByRole('progressbar', { name: 'leave.txt' }).getAttribute('aria-valuetext')).toBe('Uploaded; the earlier copy was deleted');
    // Both earlier copies held the content; the one uploaded now stands for it.
    await poll(() => documentRow(page, 'leave.txt').count()).toBe(1);
    await indexed(documentRow(page, 'leave.txt'));

    // A file the server cannot process is refused with its reason; one it fails on shows why, and a retry.
    await clearFinishedUploads(page);
    await chooseFiles(page, [PICTURE, BROKEN_PDF]);
    await page.getByRole('listitem').filter({ hasText: 'picture.png' }).getByText(/cannot be processed/).waitFor();
    const broken = documentRow(page, 'broken.pdf');
    await failedWith(broken, 'Failed while extracting text');
    await failedWith(broken, /could not be read/i);
    const retried = page.waitForResponse((response) => response.url().endsWith('/retry') && response.request().method() === 'POST');
    await expectAccessible(page, 'a failed document and a refused file');
    await broken.getByRole('button', { name: 'Retry broken.pdf' }).click();
    const retry = await retried;
    expect(retry.status()).toBe(200);
    expect(((await retry.json()) as { data: { is_failed: boolean } }).data.is_failed).toBe(false);
    // Processed again from the step that failed, it fails again for the same reason, said again.
    await failedWith(broken, 'Failed while extracting text');
    await failedWith(broken, /could not be read/i);
    await page.getByRole('button', { name: 'Try again to upload picture.png' }).waitFor();

    // A tag added, then removed.
    const travel = documentRow(page, 'travel.txt');
    await travel.getByRole('button', { name: 'Add tag to travel.txt' }).click();
    const tagDialog = page.getByRole('dialog', { name: 'Add tag to travel.txt' });
    await tagDialog.getByLabel('Tag').fill('policy');
    await tagDialog.getByRole('button', { name: 'Add tag', exact: true }).click();
    const tags = travel.getByRole('grid', { name: 'Tags of travel.txt' });
    await tags.getByRole('row', { name: /policy/ }).waitFor();
    await tags.getByRole('button', { name: /^Remove/ }).click();
    await tags.waitFor({ state: 'detached' });

    // A document deleted, after the question that names it.
    await documentRow(page, 'security.txt').getByRole('button', { name: 'Delete security.txt' }).click();
    const confirmDelete = page.getByRole('alertdialog', { name: 'Delete security.txt?' });
    await confirmDelete.getByRole('button', { name: 'Delete document' }).click();
    await poll(() => documentRow(page, 'security.txt').count()).toBe(0);

    // Search finds the passage, with its document and score, as an agent would get it.
    await page.getByRole('tab', { name: 'Search' }).click();
    await page.getByRole('searchbox', { name: 'Search the corpus' }).fill('parental leave');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const passage = page.getByRole('listitem').filter({ hasText: 'sixteen weeks' });
    await passage.getByText('leave.txt').waitFor();
    await passage.getByText(/^Score \d\.\d\d$/).waitFor();
    await expectAccessible(page, 'the search results');

    // Access given to a user of the organization, changed, and taken away.
    await page.getByRole('tab', { name: 'Who has access' }).click();
    await page.getByRole('combobox', { name: 'User' }).fill('reader');
    await page.getByRole('option', { name: /reader@example\.com/ }).click();
    await page.getByRole('button', { name: 'Give access' }).click();
    const readerRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: reader.email }) });
    await readerRow.waitFor();
    await poll(() => readerRow.getByRole('button', { name: /Permission of reader@example\.com/ }).textContent()).toContain('Read');
    await readerRow.getByRole('button', { name: /Permission of reader@example\.com/ }).click();
    await page.getByRole('option', { name: /^Write/ }).click();
    await poll(() => readerRow.getByRole('button', { name: /Permission of reader@example\.com/ }).textContent()).toContain('Write');
    await expectAccessible(page, 'who has access');
    await readerRow.getByRole('button', { name: `Remove ${reader.email}` }).click();
    await page.getByRole('alertdialog', { name: `Remove ${reader.email}?` }).getByRole('button', { name: 'Remove access' }).click();
    await readerRow.waitFor({ state: 'detached' });

    // The corpus deleted, after the question that names it.
    await page.getByRole('button', { name: 'Delete corpus' }).click();
    await page.getByRole('alertdialog', { name: 'Delete Handbook?' }).getByRole('button', { name: 'Delete corpus' }).click();
    await page.getByRole('heading', { name: 'Corpora', level: 1 }).waitFor();
    await page.getByText('No corpora yet. Create one to add documents.').waitFor();
  });

  it('a viewer reads a corpus shared with them, and is told why they cannot change it', async () => {
    const server = browser.server();
    const viewer = await createUser(server.t.app, { role: 'viewer', email: 'viewer@example.com', password: 'a long viewer password' });
    const created = await server.admin.api.post('/api/v2/corpora', { name: 'Shared policies' });
    const corpusId = (created.body.data as { id: number }).id;
    await server.admin.api.post(`/api/v2/corpora/${corpusId}/permissions`, { user_id: viewer.id, permission: 'read' });
    await server.admin.api.post(`/api/v2/corpora/${corpusId}/documents`, { upload_from: 'text', name: 'holidays.txt', text: 'Everyone has twenty-five days of holiday a year.' });

    const { page } = await browser.open();
    await signIn(page, viewer.email, 'a long viewer password');
    await page.goto('/corpora');
    const newCorpus = page.getByRole('button', { name: 'New corpus' });
    await newCorpus.waitFor();
    expect(await newCorpus.isDisabled()).toBe(true);
    await page.getByText('Viewers cannot create corpora').waitFor();
    const shared = page.getByRole('link', { name: 'Shared policies' });
    await shared.waitFor();
    expect(await page.getByRole('button', { name: 'Delete Shared policies' }).count()).toBe(0);

    await shared.click();
    await page.getByRole('heading', { name: 'Shared policies', level: 1 }).waitFor();
    await page.getByText(/You can read this corpus/).waitFor();
    await indexed(documentRow(page, 'holidays.txt'));
    for (const name of ['Choose files', 'Delete corpus', 'Delete holidays.txt', 'Add tag to holidays.txt']) {
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    }
    expect(await page.getByRole('tab', { name: 'Who has access' }).count()).toBe(0);
    await expectAccessible(page, 'a corpus as a reader');

    await page.getByRole('tab', { name: 'Search' }).click();
    await page.getByRole('searchbox', { name: 'Search the corpus' }).fill('holiday');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('listitem').filter({ hasText: 'twenty-five days' }).waitFor();
  });

  it("shows others' uploads live, and misses nothing when the live connection drops and comes back", async () => {
    const server = browser.server();
    const created = await server.admin.api.post('/api/v2/corpora', { name: 'Live corpus' });
    const corpusId = (created.body.data as { id: number }).id;
    const uploadText = async (name: string, text: string) => {
      const reply = await server.admin.api.post(`/api/v2/corpora/${corpusId}/documents`, { upload_from: 'text', name, text });
      expect(reply.status).toBe(201);
      return (reply.body.data as { items: { id: number }[] }).items[0]!.id;
    };

    const { page } = await browser.open();
    await signIn(page, server.email, server.password);
    await page.goto(`/corpora/${corpusId}`);
    await page.getByText('Status updates live').waitFor();

    // Uploaded by someone else: only the server's events can tell this page.
    await uploadText('first.txt', 'The first note is about budgets.');
    await indexed(documentRow(page, 'first.txt'));

    // The connection drops (the server ends its streams); the page's reconnection is held back
    // until a document has been uploaded and processed in the meantime.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const resumedAfter: (string | undefined)[] = [];
    await page.route('**/api/v2/corpora/*/events', async (route) => {
      resumedAfter.push(route.request().headers()['last-event-id']);
      await held;
      await route.continue();
    });
    server.t.app.services.progress.endAll();
    await page.getByText('Live updates interrupted; reconnecting…').waitFor();
    await poll(() => resumedAfter.length).toBeGreaterThan(0);
    const missed = await uploadText('second.txt', 'The second note is about hiring.');
    const stepOfMissed = async () => ((await server.admin.api.get(`/api/v2/corpora/${corpusId}/documents/${missed}`)).body.data as { step: string }).step;
    await poll(stepOfMissed, PROCESSING_MS).toBe('indexed');
    expect(await documentRow(page, 'second.txt').count()).toBe(0);

    release();
    // Reconnected from the last event it had, the page is told what it missed.
    await indexed(documentRow(page, 'second.txt'));
    await page.getByText('Status updates live').waitFor();
    expect(resumedAfter[0]).toMatch(/^\d+$/);
  });

  it('fits a 390 px wide screen: upload, live status and the lists', async () => {
    const server = browser.server();
    const { page } = await browser.open({ viewport: PHONE });
    await signIn(page, server.email, server.password);
    await page.goto('/corpora');
    await page.getByRole('heading', { name: 'Corpora', level: 1 }).waitFor();
    await createCorpus(page, 'Phone corpus');
    await chooseFiles(page, [TRAVEL]);
    await poll(() => page.getByRole('progressbar', { name: 'travel.txt' }).getAttribute('aria-valuetext')).toBe('Uploaded');
    await indexed(documentRow(page, 'travel.txt'));

    // A whole folder: its files, the subfolder's too, each named by its path; the hidden file left out.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose a folder' }).click();
    await (await chooser).setFiles(GUIDES);
    for (const name of ['guides/onboarding.md', 'guides/facilities/parking.txt']) {
      await poll(() => page.getByRole('progressbar', { name }).getAttribute('aria-valuetext')).toBe('Uploaded');
    }
    await page.getByText('3 of 3 files uploaded').waitFor();
    await indexed(documentRow(page, 'onboarding.md'));
    await indexed(documentRow(page, 'parking.txt'));
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the corpus page on a phone');

    await page.getByRole('tab', { name: 'Search' }).click();
    await page.getByRole('searchbox', { name: 'Search the corpus' }).fill('trains');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('listitem').filter({ hasText: 'Trains are preferred' }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);

    await page.getByRole('tab', { name: 'Who has access' }).click();
    await page.getByRole('button', { name: 'Give access' }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);

    await page.getByRole('link', { name: 'All corpora' }).click();
    await page.getByRole('link', { name: 'Phone corpus' }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the corpora list on a phone');
  });
});

// The organization's settings and the notifications in a real browser: rename the organization, upload
// a logo with its preview, create and activate configurations, switch a feature flag and see the API
// follow it; notifications made by real server actions counted by the header's bell, marked read one
// by one and all at once, at phone width.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from './support/chromium.js';
import { BROWSER_TEST, expectAccessible, overflowsSideways, PHONE, poll, signIn, useConsoleBrowser } from './support/console-browser.js';

// A 1×1 PNG: the server decides the type from these bytes.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

async function openSettings(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organization' }).click();
  await page.getByRole('heading', { name: 'Organization', level: 1 }).waitFor();
}

const bell = (page: Page) => page.getByRole('link', { name: /^Notifications, / });

describe.skipIf(CHROMIUM_PATH === undefined)('console: organization and notifications', BROWSER_TEST, () => {
  const browser = useConsoleBrowser();

  it('renames the organization, uploads a logo, activates a configuration and switches a feature flag', async () => {
    const server = browser.server();
    const admin = server.admin.api;
    const organizationId = server.admin.organizationId;
    const { page } = await browser.open();
    await signIn(page, server.email, server.password);
    await openSettings(page);
    await expectAccessible(page, 'the organization settings');

    await page.getByLabel('Organization name').fill('Acme Research');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await admin.get(`/api/v2/organizations/${organizationId}`)).body.data.name).toBe('Acme Research');

    // A logo: chosen, previewed, uploaded, then shown as the current one (read back from the server).
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose image' }).click();
    await (await chooser).setFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('img', { name: 'Preview of the new logo' }).waitFor();
    await page.getByRole('button', { name: 'Upload logo' }).click();
    await page.getByText('Logo uploaded.').waitFor();
    const current = page.getByRole('img', { name: 'Current logo of Acme Research' });
    // Loaded, and decoded as the 1×1 image sent (the test's types know no DOM, hence the shape named).
    const loadedWidth = () => current.evaluate((image) => (image as unknown as { complete: boolean; naturalWidth: number }).naturalWidth);
    await poll(loadedWidth).toBe(1);
    expect((await admin.get(`/api/v2/organizations/${organizationId}`)).body.data.logo_content_type).toBe('image/png');

    // A file that is not an image is refused before it is sent.
    const notImage = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose image' }).click();
    await (await notImage).setFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await page.getByText('notes.txt is not a PNG, JPEG, GIF or WebP image.').waitFor();

    // Configurations: one created active, a second activated in its place.
    await page.getByRole('button', { name: 'New configuration' }).click();
    let dialog = page.getByRole('dialog', { name: 'New configuration' });
    await dialog.getByLabel('Name').fill('Staging');
    await dialog.getByLabel('Settings (JSON)').fill('{ "default_language": ');
    await dialog.getByText(/Not valid JSON/).waitFor();
    await dialog.getByLabel('Settings (JSON)').fill('{ "default_language": "fr" }');
    await dialog.getByText('Make it the active configuration').click();
    await expectAccessible(page, 'the new configuration dialog');
    await dialog.getByRole('button', { name: 'Create configuration' }).click();
    await page.getByText('Active: Staging.').waitFor();

    await page.getByRole('button', { name: 'New configuration' }).click();
    dialog = page.getByRole('dialog', { name: 'New configuration' });
    await dialog.getByLabel('Name').fill('Production');
    await dialog.getByLabel('Settings (JSON)').fill('{ "default_language": "en" }');
    await dialog.getByRole('button', { name: 'Create configuration' }).click();
    await page.getByRole('button', { name: 'Activate Production' }).click();
    await page.getByText('Active: Production.').waitFor();
    const active = await admin.get(`/api/v2/organizations/${organizationId}/configurations/active`);
    expect(active.body.data).toMatchObject({ name: 'Production', settings: { default_language: 'en' } });

    // A flag switched off: the API says so, and what it gates is refused (and no longer offered).
    const portal = page.getByRole('switch', { name: /Developer portal/ });
    expect(await portal.isChecked()).toBe(true);
    await page.getByText('Gates: Creating API keys (POST /api/v2/auth/api-keys).').waitFor();
    await portal.click({ force: true });
    await poll(async () => (await admin.get('/api/v2/feature-flags/developer-portal')).body.data.enabled).toBe(false);
    expect((await admin.post('/api/v2/auth/api-keys', { name: 'refused' })).status).toBe(403);
    await page.getByText(`off, changed by ${server.email}`).waitFor();
    await expectAccessible(page, 'the organization settings after changes');
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'People' }).click();
    await page.getByRole('navigation', { name: 'People' }).getByRole('link', { name: 'API keys' }).click();
    expect(await page.getByRole('button', { name: 'New API key' }).isDisabled()).toBe(true);
    await page.getByText(/developer-portal feature is off/).waitFor();

    await openSettings(page);
    await page.getByRole('switch', { name: /Developer portal/ }).click({ force: true });
    await poll(async () => (await admin.get('/api/v2/feature-flags/developer-portal')).body.data.enabled).toBe(true);
  });

  it('counts the notifications real actions make in the bell, marks one read and then all, at phone width', async () => {
    const server = browser.server();
    const admin = server.admin.api;
    const owner = (await admin.get(`/api/v2/users?q=${encodeURIComponent(server.email)}`)).body.data.items[0] as { id: number };
    // Another owner adds the signed-in owner to a team and to a project: each tells them.
    const team = await admin.post('/api/v2/teams', { name: 'Research' });
    expect((await admin.post(`/api/v2/teams/${team.body.data.id}/members`, { user_id: owner.id, role: 'editor' })).status).toBe(201);
    const project = await admin.post('/api/v2/projects', { name: 'Field study' });
    expect((await admin.post(`/api/v2/projects/${project.body.data.id}/users`, { user_ids: [owner.id] })).status).toBe(200);

    const { page } = await browser.open({ viewport: PHONE });
    await signIn(page, server.email, server.password);
    await poll(() => bell(page).getAttribute('aria-label')).toBe('Notifications, 2 unread');
    await expectAccessible(page, 'the header with unread notifications at phone width');

    await bell(page).click();
    await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'You were added to the team Research' }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the notifications page at phone width');

    await page.getByRole('button', { name: 'Mark read: You were added to the team Research' }).click();
    await poll(() => bell(page).getAttribute('aria-label')).toBe('Notifications, 1 unread');
    expect(await page.getByRole('button', { name: 'Mark read: You were added to the team Research' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Mark all read' }).click();
    await poll(() => bell(page).getAttribute('aria-label')).toBe('Notifications, none unread');
    await page.getByText('Nothing unread.').waitFor();
    // The server agrees (asked as the signed-in owner, from the page).
    const left = await page.evaluate(async () => ((await (await fetch('/api/v2/notifications?unread=true')).json()) as { data: { total: number } }).data.total);
    expect(left).toBe(0);

    // A notification's link leads to the console's page of what it is about.
    await page.getByRole('link', { name: 'You were added to the team Research' }).click();
    await page.getByRole('heading', { name: 'Research', level: 1 }).waitFor();

    // The settings fit the phone too, with what an owner may change.
    await page.goto('/organization');
    await page.getByRole('switch', { name: /Developer portal/ }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the organization settings at phone width');
  });
});

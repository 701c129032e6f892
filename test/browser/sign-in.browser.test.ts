// Signing in and out of the console in a real browser, as a person does.
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from './support/chromium.js';
import { BROWSER_TEST, expectAccessible, PHONE, overflowsSideways, signIn, useConsoleBrowser } from './support/console-browser.js';

describe.skipIf(CHROMIUM_PATH === undefined)('console: signing in', BROWSER_TEST, () => {
  const browser = useConsoleBrowser();

  it('opening the server shows the sign-in page; a wrong password is said plainly; the owner signs in and out', async () => {
    const { page } = await browser.open();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await expectAccessible(page, 'the sign-in page');

    await page.getByLabel('E-mail').fill(browser.server().email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: /password/i }).waitFor();

    await page.getByLabel('Password').fill(browser.server().password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The session ended on the server: the console's pages ask to sign in again.
    await page.goto('/agents');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });

  it('a deep link survives a reload, and asks to sign in first when there is no session', async () => {
    const { page } = await browser.open();
    await page.goto('/corpora');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe('/corpora');
    await page.getByLabel('E-mail').fill(browser.server().email);
    await page.getByLabel('Password').fill(browser.server().password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Corpora', level: 1 }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Corpora', level: 1 }).waitFor();
  });

  it('fits a 390 px wide screen', async () => {
    const { page } = await browser.open({ viewport: PHONE });
    await signIn(page, browser.server().email, browser.server().password);
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the agents page on a phone');
  });
});

// The account pages in a real browser: choosing a password from an invitation's link, the profile
// (name, password), the session ending mid-work, and the login rate limit said plainly.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from './support/chromium.js';
import { BROWSER_TEST, expectAccessible, overflowsSideways, PHONE, poll, signIn, useConsoleBrowser } from './support/console-browser.js';

const NEW_PASSWORD = 'a brand new passphrase';

let sequence = 0;

/** The header's link to the profile, whose text is the signed-in user's name. */
const profileLink = (page: Page) => page.getByRole('link', { name: /, your profile$/ });
const shownName = async (page: Page) => (await profileLink(page).textContent())?.replace(', your profile', '');

describe.skipIf(CHROMIUM_PATH === undefined)('console: account pages', BROWSER_TEST, () => {
  const browser = useConsoleBrowser();

  /** A user of the owner's organization, made through the API as the console's admins would. */
  async function createUserWithPassword(password: string) {
    const reply = await browser.server().admin.api.post('/api/v2/users', {
      email: `person${++sequence}@example.com`,
      first_name: 'Pat',
      last_name: 'Doe',
      role: 'member',
      password,
    });
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data.user as { id: number; email: string };
  }

  it('an invited person chooses a password from the link (mismatch refused in the page), signs in with it; a used link is refused', async () => {
    const invited = await browser.server().admin.api.post('/api/v2/users', { email: 'invited@example.com', first_name: 'Ines', last_name: 'Invited' });
    expect(invited.status, invited.text).toBe(201);
    const token = invited.body.data.set_password_token as string;

    const { page } = await browser.open({ viewport: PHONE });
    const sent: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/v2/auth/set-password') sent.push(request.method());
    });
    await page.goto(`/set-password?token=${encodeURIComponent(token)}`);
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    await expectAccessible(page, 'the set-password page');
    expect(await overflowsSideways(page)).toBe(false);

    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again', { exact: true }).fill(`${NEW_PASSWORD} but different`);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('The two passwords differ.').waitFor();
    expect(sent, 'nothing sent while the two passwords differ').toEqual([]);
    await expectAccessible(page, 'the set-password page with a mismatch');

    await page.getByLabel('New password again', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password is set. Sign in with it.').waitFor();
    expect(sent).toEqual(['POST']);
    expect(await page.getByLabel('E-mail').inputValue()).toBe('invited@example.com');
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await poll(() => shownName(page)).toBe('Ines Invited');

    // The link works once: opened again, the server's refusal is said, with what to do.
    const again = await browser.open({ viewport: PHONE });
    await again.page.goto(`/set-password?token=${encodeURIComponent(token)}`);
    await again.page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await again.page.getByLabel('New password again', { exact: true }).fill(NEW_PASSWORD);
    await again.page.getByRole('button', { name: 'Set password' }).click();
    const refusal = again.page.getByRole('alert').filter({ hasText: 'This link is invalid, expired or already used' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('Ask an administrator for a new link');
    await expectAccessible(again.page, 'the set-password page with a used link');
  });

  it('a link without its token says so', async () => {
    const { page } = await browser.open();
    await page.goto('/set-password');
    await page.getByRole('alert').filter({ hasText: 'This link has no token' }).waitFor();
    await expectAccessible(page, 'the set-password page without a token');
  });

  it('the profile shows the role and organization; the user changes their name (the header follows) and their password', async () => {
    const oldPassword = 'the first passphrase';
    const user = await createUserWithPassword(oldPassword);
    const organization = (await browser.server().admin.api.get('/api/v2/users/me')).body.data.organization.name as string;

    const { page } = await browser.open();
    await signIn(page, user.email, oldPassword);
    await profileLink(page).click();
    await page.getByRole('heading', { name: 'Your profile', level: 1 }).waitFor();
    const account = page.getByRole('region', { name: 'Account' });
    expect(await account.textContent()).toContain('member');
    expect(await account.textContent()).toContain(organization);
    await expectAccessible(page, 'the profile page');

    await page.getByLabel('First name').fill('Patricia');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('Name saved.').waitFor();
    await poll(() => shownName(page)).toBe('Patricia Doe');

    // A wrong current password: the server's refusal, on the field.
    await page.getByLabel('Current password').fill('not my password at all');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').filter({ hasText: 'Password not changed: Current password is wrong.' }).waitFor();
    await page.getByText('Current password is wrong.', { exact: true }).waitFor();
    await expectAccessible(page, 'the profile page with a refused password change');

    await page.getByLabel('Current password').fill(oldPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText(/Password changed\. Your other sessions .* are signed out; this one stays signed in\./).waitFor();
    expect(await page.getByLabel('Current password').inputValue()).toBe('');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill(oldPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: /password/i }).waitFor();
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await poll(() => shownName(page)).toBe('Patricia Doe');
  });

  it('the session ending mid-work: the sign-in dialog opens over the page, the typed name stays, and the save goes through after signing in (390 px)', async () => {
    const password = 'yet another passphrase';
    const user = await createUserWithPassword(password);
    const { page, context } = await browser.open({ viewport: PHONE });
    await signIn(page, user.email, password);
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Your profile', level: 1 }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await page.getByLabel('First name').fill('Half-typed');

    // Signed out in another tab of the same browser: the session ends on the server, the cookies go.
    const otherTab = await context.newPage();
    await otherTab.goto('/health');
    const status = await otherTab.evaluate(`(async () => {
      const csrf = document.cookie.split('; ').find((entry) => entry.startsWith('ap_csrf='))?.slice('ap_csrf='.length) ?? '';
      const response = await fetch('/api/v2/auth/logout', { method: 'POST', credentials: 'same-origin', headers: { 'x-csrf-token': decodeURIComponent(csrf) } });
      return response.status;
    })()`);
    expect(status).toBe(200);
    await otherTab.close();

    await page.getByRole('button', { name: 'Save name' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your session has ended' });
    await dialog.waitFor();
    expect(await page.locator('input[name="first_name"]').inputValue()).toBe('Half-typed');
    await expectAccessible(page, 'the session-ended dialog');

    await dialog.getByLabel('Password').fill(password);
    await dialog.getByRole('button', { name: 'Sign in again' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Name saved.').waitFor();
    await poll(() => shownName(page)).toBe('Half-typed Doe');
    const saved = await browser.server().admin.api.get(`/api/v2/users/${user.id}`);
    expect(saved.body.data.first_name).toBe('Half-typed');
  });
});

describe.skipIf(CHROMIUM_PATH === undefined)('console: the login rate limit', BROWSER_TEST, () => {
  const browser = useConsoleBrowser({ LIMIT_LOGINS_PER_MINUTE: '2' });

  it('after too many attempts, the sign-in page says so plainly, with when to retry', async () => {
    const { page } = await browser.open({ viewport: PHONE });
    await page.goto('/sign-in');
    await page.getByLabel('E-mail').fill(browser.server().email);
    for (let attempt = 1; attempt <= 2; attempt++) {
      await page.getByLabel('Password').fill(`wrong password ${attempt}`);
      const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v2/auth/login');
      await page.getByRole('button', { name: 'Sign in' }).click();
      expect((await answered).status()).toBe(401);
    }
    // The third attempt, even with the right password, waits for the minute to pass.
    await page.getByLabel('Password').fill(browser.server().password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: /Rate limit .* exceeded; retry in \d+ s/ }).waitFor();
    await expectAccessible(page, 'the sign-in page refusing for the rate limit');
  });
});

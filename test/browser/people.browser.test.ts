// People in a real browser, as an owner works with them: invite a member (the set-password link shown
// once, and it works), change their role, deactivate them; a team with a member and their team role;
// a project with a user; an API key shown once, used against the API, revoked and then refused. A
// viewer sees what they may not do disabled with the reason, at phone width.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { CHROMIUM_PATH } from './support/chromium.js';
import { BROWSER_TEST, expectAccessible, overflowsSideways, PHONE, poll, signIn, useConsoleBrowser } from './support/console-browser.js';

const VIEWER_PASSWORD = 'a viewer passphrase';

async function openPeople(page: Page, tab: 'Members' | 'Teams' | 'Projects' | 'API keys'): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organization' }).click();
  await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'People' }).click();
  await page.getByRole('navigation', { name: 'People' }).getByRole('link', { name: tab }).click();
  await page.getByRole('heading', { name: tab, level: 1 }).waitFor();
}

/** Picks an option of a React Aria select found by its name. */
async function choose(page: Page, select: string | RegExp, option: string): Promise<void> {
  await page.getByRole('button', { name: select }).click();
  await page.getByRole('option', { name: option }).click();
}

/** Picks a user in the user picker by typing part of their e-mail. */
async function pickUser(page: Page, email: string): Promise<void> {
  await page.getByRole('combobox', { name: 'User' }).fill(email.split('@')[0]!);
  await page.getByRole('option', { name: new RegExp(email) }).click();
}

describe.skipIf(CHROMIUM_PATH === undefined)('console: people', BROWSER_TEST, () => {
  const browser = useConsoleBrowser();

  it('invites a member (the link shown once sets their password), changes their role and deactivates them', async () => {
    const server = browser.server();
    const { page } = await browser.open();
    await signIn(page, server.email, server.password);
    await openPeople(page, 'Members');
    await expectAccessible(page, 'the members page');

    await page.getByRole('button', { name: 'Invite member' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a member' });
    await dialog.getByLabel('E-mail').fill('grace@example.com');
    await dialog.getByLabel('First name').fill('Grace');
    await dialog.getByLabel('Last name').fill('Hopper');
    await expectAccessible(page, 'the invitation dialog');
    await dialog.getByRole('button', { name: 'Invite' }).click();

    const shown = page.getByRole('alertdialog', { name: 'Invitation link' });
    await shown.getByText('you will not see it again').waitFor();
    const link = await shown.getByLabel('Set-password link').inputValue();
    expect(link).toMatch(new RegExp(`^${server.baseUrl}/set-password\\?token=.+`));
    await expectAccessible(page, 'the invitation link');
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Grace Hopper' }) });
    await row.getByText('grace@example.com').waitFor();
    await row.getByText('Active').waitFor();

    // The link works: the invited person chooses a password with it, in a browser of their own.
    const invited = await browser.open();
    await invited.page.goto(link);
    await invited.page.getByLabel('New password', { exact: true }).fill('grace chooses a passphrase');
    await invited.page.getByLabel('New password again', { exact: true }).fill('grace chooses a passphrase');
    await invited.page.getByRole('button', { name: 'Set password' }).click();
    await invited.page.getByText('Your password is set. Sign in with it.').waitFor();

    const userId = async () => ((await server.admin.api.get('/api/v2/users?q=grace')).body.data.items[0] as { id: number }).id;
    const grace = async () => (await server.admin.api.get(`/api/v2/users/${await userId()}`)).body.data as { role: string; is_active: boolean };

    await choose(page, 'Role of grace@example.com', 'Admin');
    await poll(async () => (await grace()).role).toBe('admin');
    await row.getByRole('button', { name: /Role of grace@example.com/ }).getByText('Admin').waitFor();

    await row.getByRole('button', { name: 'Deactivate grace@example.com' }).click();
    const question = page.getByRole('alertdialog', { name: 'Deactivate grace@example.com?' });
    await expectAccessible(page, 'the deactivation question');
    await question.getByRole('button', { name: 'Deactivate' }).click();
    await row.getByText('Deactivated').waitFor();
    expect((await grace()).is_active).toBe(false);
    // Nothing more to do to a deactivated member: the role is no longer offered.
    expect(await row.getByRole('button', { name: /Role of/ }).count()).toBe(0);
  });

  it('creates a team, adds a member with a team role, changes it, renames and deletes the team; a project with a user, renamed and deleted', async () => {
    const server = browser.server();
    const lin = await createUser(server.t.app, { role: 'member', email: 'lin@example.com' });
    const { page } = await browser.open();
    await signIn(page, server.email, server.password);
    await openPeople(page, 'Teams');
    await expectAccessible(page, 'the teams page');

    await page.getByRole('button', { name: 'New team' }).click();
    const newTeam = page.getByRole('dialog', { name: 'New team' });
    await newTeam.getByLabel('Name').fill('Support');
    await newTeam.getByLabel('Description').fill('First-line support');
    await newTeam.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('heading', { name: 'Support', level: 1 }).waitFor();
    const teamId = Number(/teams\/(\d+)$/.exec(page.url())![1]);

    await pickUser(page, lin.email);
    await choose(page, /Role in the team/, 'Viewer');
    await page.getByRole('button', { name: 'Add to team' }).click();
    const linRow = page.getByRole('row').filter({ hasText: 'lin@example.com' });
    await linRow.getByRole('button', { name: /Team role of lin@example.com/ }).getByText('Viewer').waitFor();
    await expectAccessible(page, 'a team with its members');
    const teammates = async () =>
      ((await server.admin.api.get(`/api/v2/teams/${teamId}/members`)).body.data.items as { email: string; role: string }[]).map((m) => `${m.email}:${m.role}`).sort();
    expect(await teammates()).toEqual(['lin@example.com:viewer', `${server.email}:lead`]);

    await choose(page, 'Team role of lin@example.com', 'Editor');
    await poll(teammates).toEqual(['lin@example.com:editor', `${server.email}:lead`]);

    await page.getByRole('button', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename the team' });
    await rename.getByLabel('Name').fill('Customer support');
    await rename.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Customer support', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Delete team' }).click();
    await page.getByRole('alertdialog', { name: 'Delete Customer support?' }).getByRole('button', { name: 'Delete team' }).click();
    await page.getByRole('heading', { name: 'Teams', level: 1 }).waitFor();
    expect((await server.admin.api.get(`/api/v2/teams/${teamId}`)).status).toBe(404);

    // A project, its user added, then renamed.
    await page.getByRole('navigation', { name: 'People' }).getByRole('link', { name: 'Projects' }).click();
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    await expectAccessible(page, 'the projects page');
    await page.getByRole('button', { name: 'New project' }).click();
    const newProject = page.getByRole('dialog', { name: 'New project' });
    await newProject.getByLabel('Name').fill('Spring launch');
    await newProject.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Spring launch', level: 1 }).waitFor();
    const projectId = Number(/projects\/(\d+)$/.exec(page.url())![1]);
    await pickUser(page, lin.email);
    await page.getByRole('button', { name: 'Add to project' }).click();
    await page.getByRole('button', { name: 'Remove lin@example.com from the project' }).waitFor();
    const projectUsers = async () => ((await server.admin.api.get(`/api/v2/projects/${projectId}`)).body.data.users as { email: string }[]).map((u) => u.email).sort();
    expect(await projectUsers()).toEqual(['lin@example.com', server.email]);
    // Shown as a team's members are: the e-mail under the name, no column of its own.
    await page.getByRole('rowheader', { name: /lin@example\.com/ }).waitFor();
    await expect(page.getByRole('columnheader').allTextContents()).resolves.toEqual(['Member', 'Actions']);
    await expectAccessible(page, 'a project with its users');

    await page.getByRole('button', { name: 'Remove lin@example.com from the project' }).click();
    await page.getByRole('alertdialog', { name: 'Remove lin@example.com from the project?' }).getByRole('button', { name: 'Remove' }).click();
    await poll(projectUsers).toEqual([server.email]);

    await page.getByRole('button', { name: 'Rename' }).click();
    const renameProject = page.getByRole('dialog', { name: 'Rename the project' });
    await renameProject.getByLabel('Name').fill('Summer launch');
    await renameProject.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Summer launch', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'All projects' }).click();
    await page.getByRole('link', { name: 'Summer launch' }).click();

    await page.getByRole('button', { name: 'Delete project' }).click();
    await page.getByRole('alertdialog', { name: 'Delete Summer launch?' }).getByRole('button', { name: 'Delete project' }).click();
    await page.getByText('No projects yet.').waitFor();
    expect((await server.admin.api.get(`/api/v2/projects/${projectId}`)).status).toBe(404);
  });

  it('creates an API key shown once, which works against the API until it is revoked', async () => {
    const server = browser.server();
    const { page } = await browser.open();
    await signIn(page, server.email, server.password);
    await openPeople(page, 'API keys');
    await expectAccessible(page, 'the API keys page');

    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByLabel('Name').fill('Nightly job');
    await dialog.getByLabel('Expires after (days)').fill('0');
    await dialog.getByText('A whole number of days from 1 to 3650.').waitFor();
    expect(await dialog.getByRole('button', { name: 'Create key' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Expires after (days)').fill('30');
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const shown = page.getByRole('alertdialog', { name: 'Your new API key' });
    await shown.getByText('you will not see it again').waitFor();
    const key = await shown.getByLabel('API key').inputValue();
    expect(key.length).toBeGreaterThan(20);
    await expectAccessible(page, 'the new key dialog');
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });

    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Nightly job' }) });
    await row.getByText('Active').waitFor();
    const prefix = (await row.locator('code').textContent())!.replace('…', '');
    expect(key.startsWith(prefix)).toBe(true);
    // The page never shows the key again.
    expect(await page.getByText(key).count()).toBe(0);

    const me = () => fetch(`${server.baseUrl}/api/v2/users/me`, { headers: { authorization: `Bearer ${key}` } });
    const working = await me();
    expect(working.status).toBe(200);
    expect(((await working.json()) as { data: { email: string } }).data.email).toBe(server.email);

    await row.getByRole('button', { name: 'Revoke Nightly job' }).click();
    await page.getByRole('alertdialog', { name: 'Revoke Nightly job?' }).getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText('Revoked').waitFor();
    expect((await me()).status).toBe(401);
  });

  it('shows a viewer what they may not do, with the reason, at phone width (members, teams, settings)', async () => {
    const server = browser.server();
    await createUser(server.t.app, { role: 'viewer', email: 'vera@example.com', password: VIEWER_PASSWORD });
    const { page } = await browser.open({ viewport: PHONE });
    await signIn(page, 'vera@example.com', VIEWER_PASSWORD);
    await page.goto('/organization/people');
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    expect(await page.getByRole('button', { name: 'Invite member' }).isDisabled()).toBe(true);
    await page.getByText('Only owners and admins invite and manage members.').waitFor();
    expect(await page.getByRole('button', { name: /^Deactivate/ }).count()).toBe(0);
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the members page of a viewer at phone width');

    await page.getByRole('navigation', { name: 'People' }).getByRole('link', { name: 'Teams' }).click();
    await page.getByRole('heading', { name: 'Teams', level: 1 }).waitFor();
    expect(await page.getByRole('button', { name: 'New team' }).isDisabled()).toBe(true);
    await page.getByText(/Viewers can look but not change anything/).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the teams page of a viewer at phone width');

    // The organization's settings: read, not changed.
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByText('Only owners and admins change the organization’s settings.').waitFor();
    expect(await page.getByRole('switch', { name: /Developer portal/ }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save name' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'New configuration' }).count()).toBe(0);
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the organization settings of a viewer at phone width');
  });
});

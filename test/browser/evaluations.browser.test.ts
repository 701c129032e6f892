// Evaluations in a real browser, as a person uses them: a dataset created and filled from a CSV (a
// refused row reported first, nothing added), its queries changed; metrics defined with and without
// a judge model, changed, deleted; a run of an agent followed live to its end, one of its answers
// opened; a second run after the model's answers changed, and the two compared, the queries that got
// worse and better first. The agent answers with the loopback fake model, the judge is another fake.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentWith, createModelConfiguration } from '../support/ask.js';
import { createCorpus, uploadText, waitForProcessing } from '../support/corpora.js';
import { createUser } from '../support/factories.js';
import { startFakeOpenAi, type FakeLlmServer } from '../support/fake-openai.js';
import { CHROMIUM_PATH } from './support/chromium.js';
import { BROWSER_TEST, expectAccessible, overflowsSideways, PHONE, poll, PROCESSING_MS, signIn, useConsoleBrowser } from './support/console-browser.js';

const folder = mkdtempSync(join(tmpdir(), 'evaluations-browser-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
}

// Line 3 has no question: the server refuses the file and says so for that line.
const WITH_A_BAD_ROW = file(
  'questions-draft.csv',
  'question,expected_answer,expected_sources,tags\n' +
    'How long is parental leave?,sixteen weeks,handbook.txt,leave\n' +
    ',forgot the question,,\n' +
    'Who books travel?,the travel desk,handbook.txt,travel\n',
);
const FIXED = file(
  'questions.csv',
  'question,expected_answer,expected_sources,tags\n' +
    'How long is parental leave?,sixteen weeks,handbook.txt,leave\n' +
    'Who books travel?,the travel desk,handbook.txt,travel\n' +
    'Where is the canteen?,on the ground floor,,\n',
);
const HANDBOOK = 'Parental leave lasts sixteen weeks at full pay. Travel is booked through the travel desk.';
const LEAVE_ANSWER = 'Parental leave lasts sixteen weeks [1].';
const TRAVEL_ANSWER = 'Trips are booked through the travel desk [1].';

async function chooseFile(page: Page, path: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose a CSV or JSON file' }).click();
  await (await chooser).setFiles(path);
}

async function choose(page: Page, field: string | RegExp, option: string): Promise<void> {
  await page.getByRole('button', { name: field }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Ticks the checkbox whose name starts with `name` (its second line follows). */
async function check(page: Page, name: string): Promise<void> {
  await page.locator('label').filter({ has: page.getByRole('checkbox', { name: new RegExp(`^${name}`) }) }).click();
}

describe.skipIf(CHROMIUM_PATH === undefined)('console: evaluations', BROWSER_TEST, () => {
  // Loopback on any port: the judge's fake starts after the server.
  const browser = useConsoleBrowser({ EGRESS_ALLOWED_HOSTS: '127.0.0.1' });
  let judge: FakeLlmServer;
  const runIds: number[] = [];
  /** A named checkpoint of the agent, which the second run answers with. */
  let checkpointId: number;

  beforeAll(async () => {
    const { admin, modelConfigurationId } = browser.server();
    judge = await startFakeOpenAi();
    judge.answer = '{"score": 5, "reason": "Polite and to the point."}';
    await createModelConfiguration(admin, judge, { name: 'Judge model' });
    const corpus = await createCorpus(admin, { name: 'Handbook' });
    const document = await uploadText(admin, corpus.id, HANDBOOK, { name: 'handbook.txt' });
    await waitForProcessing(admin, corpus.id, [document.id], PROCESSING_MS);
    const agent = await agentWith(admin, [corpus.id], { name: 'Leave helper', status: 'active', llm_configuration_id: modelConfigurationId });
    const checkpoint = await admin.api.post(`/api/v2/agents/${agent.id}/history`, { checkpoint_name: 'Reviewed' });
    expect(checkpoint.status).toBe(201);
    checkpointId = checkpoint.body.data.history_id;
  }, PROCESSING_MS + 30_000);

  afterAll(async () => {
    await judge?.close();
  });

  /** Starts a run through the dialog and waits for its page; its id. */
  async function startRun(page: Page, name: string, tag: string, checkpoint?: string): Promise<number> {
    await page.getByRole('navigation', { name: 'Evaluations' }).getByRole('link', { name: 'Runs' }).click();
    await page.getByRole('heading', { name: 'Evaluations', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New run' }).click();
    const dialog = page.getByRole('dialog', { name: 'New run' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await choose(page, /Agent/, 'Leave helper');
    if (checkpoint !== undefined) await choose(page, /Checkpoint/, checkpoint);
    await choose(page, /Dataset/, 'Handbook questions');
    await check(page, 'Contains the expected answer');
    await check(page, 'Polite and relevant');
    await dialog.getByRole('textbox', { name: 'Tags' }).fill(tag);
    await dialog.getByRole('button', { name: 'Start run' }).click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    const id = Number(/\/evaluations\/runs\/(\d+)$/.exec(new URL(page.url()).pathname)?.[1]);
    expect(id).toBeGreaterThan(0);
    return id;
  }

  it('creates a dataset from a CSV, defines metrics, follows a run live, opens an answer, and compares two runs', async () => {
    const { fake, email, password } = browser.server();
    const { page } = await browser.open();
    await signIn(page, email, password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Evaluations' }).click();
    await page.getByRole('heading', { name: 'Evaluations', level: 1 }).waitFor();
    await page.getByText('No runs yet.').waitFor();
    await expectAccessible(page, 'the runs list');

    // A dataset, then a CSV with a row the server refuses: what was read is shown, then the refusal by its line.
    const tabs = page.getByRole('navigation', { name: 'Evaluations' });
    await tabs.getByRole('link', { name: 'Datasets' }).click();
    await page.getByRole('heading', { name: 'Datasets', level: 1 }).waitFor();
    await expectAccessible(page, 'the datasets list');
    await page.getByRole('button', { name: 'New dataset' }).click();
    let dialog = page.getByRole('dialog', { name: 'New dataset' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Handbook drafts');
    await dialog.getByRole('button', { name: 'Create dataset' }).click();
    await page.getByRole('heading', { name: 'Handbook drafts', level: 1 }).waitFor();
    await page.getByText('No queries yet.').waitFor();

    await chooseFile(page, WITH_A_BAD_ROW);
    await page.getByText('Read 3 queries from questions-draft.csv').waitFor();
    await expectAccessible(page, 'a file read before it is sent');
    await page.getByRole('button', { name: 'Add 3 queries' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'Nothing was added.' });
    await refusal.getByText('line 3: question is empty').waitFor();
    const refusedRow = page.getByRole('row').filter({ hasText: 'Refused' });
    expect(await refusedRow.count()).toBe(1);
    expect(await refusedRow.getByRole('cell').first().textContent()).toBe('3');
    await expectAccessible(page, 'a refused file');
    await page.getByText('Queries (0)').waitFor();

    await chooseFile(page, FIXED);
    await page.getByText('Read 3 queries from questions.csv').waitFor();
    await page.getByRole('button', { name: 'Add 3 queries' }).click();
    await page.getByText('Added 3 queries.').waitFor();
    await page.getByText('Queries (3)').waitFor();

    // Renamed; a query changed, another deleted.
    await page.getByRole('button', { name: 'Rename' }).click();
    dialog = page.getByRole('dialog', { name: 'Rename Handbook drafts' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Handbook questions');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Handbook questions', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Edit query: Who books travel?' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit query' });
    await dialog.getByRole('textbox', { name: 'Expected answer' }).fill('travel desk');
    await dialog.getByRole('button', { name: 'Save query' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /Who books travel\?/ }).getByText('travel desk', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Delete query: Where is the canteen?' }).click();
    await page.getByRole('alertdialog', { name: 'Delete this query?' }).getByRole('button', { name: 'Delete query' }).click();
    await page.getByText('Queries (2)').waitFor();
    await expectAccessible(page, 'a dataset with queries');

    // Metrics: one measured (defined, then deleted), one graded by the judge model (defined, then changed).
    await tabs.getByRole('link', { name: 'Metrics' }).click();
    await page.getByRole('heading', { name: 'Metrics', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New metric' }).click();
    dialog = page.getByRole('dialog', { name: 'New metric' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Says weeks');
    await choose(page, /Kind/, 'Contains');
    await dialog.getByRole('textbox', { name: 'Text to find' }).fill('weeks');
    await dialog.getByRole('textbox', { name: 'Threshold' }).fill('1');
    await dialog.getByRole('button', { name: 'Define metric' }).click();
    await page.getByRole('rowheader', { name: /^Says weeks/ }).waitFor();

    await page.getByRole('button', { name: 'New metric' }).click();
    dialog = page.getByRole('dialog', { name: 'New metric' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Polite and relevant');
    await choose(page, /Kind/, 'Your rubric (judge)');
    await dialog.getByRole('textbox', { name: 'Threshold' }).fill('0.5');
    // The rubric is required for this kind: nothing is sent without it.
    expect(await dialog.getByRole('button', { name: 'Define metric' }).isDisabled()).toBe(true);
    await dialog.getByRole('textbox', { name: 'Rubric' }).fill('Score 5 when the answer is polite and answers the question, 1 when it does neither.');
    await choose(page, /Judge model/, 'Judge model');
    await expectAccessible(page, 'the new metric form');
    await dialog.getByRole('button', { name: 'Define metric' }).click();
    const politeRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^Polite and relevant/ }) });
    await politeRow.getByText('at least 0.5').waitFor();
    await politeRow.getByRole('button', { name: 'Edit Polite and relevant' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit Polite and relevant' });
    await dialog.getByRole('textbox', { name: 'Threshold' }).fill('0.75');
    await dialog.getByRole('button', { name: 'Save metric' }).click();
    await politeRow.getByText('at least 0.75').waitFor();
    await page.getByRole('button', { name: 'Delete Says weeks' }).click();
    await page.getByRole('alertdialog', { name: 'Delete Says weeks?' }).getByRole('button', { name: 'Delete metric' }).click();
    await page.getByRole('rowheader', { name: /^Says weeks/ }).waitFor({ state: 'detached' });
    await expectAccessible(page, 'the metrics');

    // A run followed live: the model holds its first answer until the page has shown the run going.
    fake.answer = LEAVE_ANSWER;
    fake.chunks = undefined;
    const held = fake.stallNext();
    runIds.push(await startRun(page, 'Before', 'first'));
    await held.arrived;
    await page.getByRole('status').filter({ hasText: /^(Waiting to start|Running: \d of 2 queries answered)/ }).waitFor();
    await expectAccessible(page, 'a run going');
    held.release();
    await page.getByRole('status').filter({ hasText: 'Done: all 2 queries answered.' }).waitFor({ timeout: PROCESSING_MS });
    expect(await page.getByRole('progressbar', { name: 'Progress' }).getAttribute('aria-valuenow')).toBe('100');
    const summary = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Contains the expected answer' }) }).first();
    await summary.getByText('50% (1 of 2)').waitFor();
    await expectAccessible(page, 'a finished run');

    // An answer opened: the answer, its citation and each metric's verdict with the judge's reason.
    await page.getByRole('button', { name: 'Open result 1: How long is parental leave?' }).click();
    dialog = page.getByRole('dialog', { name: 'Query 1' });
    await dialog.getByText(LEAVE_ANSWER).waitFor();
    await dialog.getByRole('listitem').filter({ hasText: 'handbook.txt' }).waitFor();
    await dialog.getByRole('row', { name: /Contains the expected answer/ }).getByText('1 (pass)').waitFor();
    await dialog.getByRole('row', { name: /Polite and relevant/ }).getByText('Polite and to the point.').waitFor();
    await expectAccessible(page, 'an answer of a run');
    await dialog.getByRole('button', { name: 'Close' }).click();

    // The model now answers the other question: one query gets worse, the other better.
    fake.answer = TRAVEL_ANSWER;
    runIds.push(await startRun(page, 'After', 'second', 'Reviewed'));
    await page.getByRole('status').filter({ hasText: 'Done: all 2 queries answered.' }).waitFor({ timeout: PROCESSING_MS });
    // The checkpoint chosen answered.
    await page.getByRole('link', { name: `Reviewed (record ${checkpointId})` }).waitFor();

    await tabs.getByRole('link', { name: 'Compare' }).click();
    await page.getByRole('heading', { name: 'Compare runs', level: 1 }).waitFor();
    await choose(page, /Baseline run/, 'Before');
    await choose(page, /Compared run/, 'After');
    await page.getByText('1 got worse, 1 got better').waitFor();
    const contains = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Contains the expected answer' }) });
    await contains.getByText('over 2 paired queries').waitFor();
    expect(await contains.getByRole('cell').nth(2).textContent()).toBe('0');
    const queryRows = page.getByRole('region', { name: 'Queries' }).getByRole('row');
    await poll(() => queryRows.count()).toBe(3);
    expect(await queryRows.nth(1).textContent()).toMatch(/^Worse.*How long is parental leave\?/);
    expect(await queryRows.nth(2).textContent()).toMatch(/^Better.*Who books travel\?/);
    expect(new URL(page.url()).search).toBe(`?ids=${runIds[0]}%2C${runIds[1]}`);
    await expectAccessible(page, 'a comparison');
  });

  it('shows a viewer the comparison, a run, a dataset and the metrics at a phone’s width, offering no change', async () => {
    expect(runIds).toHaveLength(2);
    const viewer = { email: 'viewer@example.com', password: 'viewer-password-42' };
    await createUser(browser.server().t.app, { role: 'viewer', ...viewer });
    const { page } = await browser.open({ viewport: PHONE });
    await signIn(page, viewer.email, viewer.password);
    await page.goto('/evaluations');
    await page.getByRole('link', { name: 'Before' }).waitFor();
    expect(await page.getByRole('button', { name: 'New run' }).isDisabled()).toBe(true);
    await page.getByText('Viewers cannot create this').waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the runs on a phone');
    await page.goto(`/evaluations/compare?ids=${runIds.join(',')}`);
    await page.getByText('1 got worse, 1 got better').waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'a comparison on a phone');
    await page.goto(`/evaluations/runs/${runIds[0]}`);
    await page.getByRole('status').filter({ hasText: 'Done: all 2 queries answered.' }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await page.getByRole('link', { name: 'Handbook questions' }).click();
    await page.getByText('Queries (2)').waitFor();
    await page.getByText('Only owners, admins and whoever made it can change it.').waitFor();
    expect(await page.getByRole('button', { name: 'Choose a CSV or JSON file' }).count()).toBe(0);
    expect(await overflowsSideways(page)).toBe(false);
    await page.goto('/evaluations/metrics');
    await page.getByRole('heading', { name: 'Built-in metrics' }).waitFor();
    expect(await page.getByRole('button', { name: 'Edit Polite and relevant' }).count()).toBe(0);
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the metrics on a phone');
  });
});

// The chat playground in a real browser, as a person uses it: asking an agent that answers with the
// fake model, the answer streaming in with its citation, what it cost, votes and comments, threads
// kept across a reload, stopping an answer, a tool call, files given to a thread, the offline
// answerer, a phone's width, and a long answer arriving whole.
import { beforeAll, describe, expect, it } from 'vitest';
import { agentWith, createModelConfiguration } from '../support/ask.js';
import { createCorpus, uploadText, waitForProcessing } from '../support/corpora.js';
import { CHROMIUM_PATH } from './support/chromium.js';
import { BROWSER_TEST, expectAccessible, overflowsSideways, PHONE, poll, PROCESSING_MS, signIn, useConsoleBrowser } from './support/console-browser.js';

const HANDBOOK = 'Returns are accepted within thirty days of purchase when the receipt is shown at the counter.';
const STARTER = 'What is the return policy?';
const ANSWER = 'Returns are accepted within thirty days [1].';

describe.skipIf(CHROMIUM_PATH === undefined)('console: the chat playground', BROWSER_TEST, () => {
  const browser = useConsoleBrowser();
  let corpusId: number;
  let agentId: number;

  beforeAll(async () => {
    const { admin, modelConfigurationId } = browser.server();
    corpusId = (await createCorpus(admin, { name: 'Store policies' })).id;
    const document = await uploadText(admin, corpusId, HANDBOOK, { name: 'handbook.txt' });
    await waitForProcessing(admin, corpusId, [document.id], PROCESSING_MS);
    agentId = (
      await agentWith(admin, [corpusId], {
        name: 'Store helper',
        llm_configuration_id: modelConfigurationId,
        conversation_starters: [STARTER, 'Where is the nearest store?'],
      })
    ).id;
  }, PROCESSING_MS + 30_000);

  async function openChat(viewport?: { width: number; height: number }) {
    const { page } = await browser.open(viewport === undefined ? {} : { viewport });
    await signIn(page, browser.server().email, browser.server().password);
    return page;
  }

  it('offers the starters, streams a cited answer with its cost, takes a vote and a comment, and keeps the thread on reload', async () => {
    const { fake } = browser.server();
    fake.answer = ANSWER;
    fake.chunks = undefined;
    const page = await openChat();
    await page.goto(`/agents/${agentId}/chat`);
    await page.getByRole('heading', { name: 'Store helper', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'New thread' }).waitFor();
    const starter = page.getByRole('button', { name: STARTER, exact: true });
    await starter.waitFor();
    await expectAccessible(page, 'an empty thread');

    await starter.click();
    const answer = page.locator('.answer-text').last();
    await poll(() => answer.textContent()).toBe(ANSWER);
    // The thread opened by the question is in the address, and in the list of threads.
    await poll(() => new URL(page.url()).pathname).toMatch(new RegExp(`^/agents/${agentId}/chat/\\d+$`));
    await page.getByRole('complementary', { name: 'Threads' }).getByRole('link', { name: new RegExp(STARTER.replace(/[?.]/g, '\\$&')) }).waitFor();

    await page.getByText(/\d+ tokens \(\d+ in, \d+ out\)/).waitFor();
    await page.getByText('model fake-model').waitFor();
    await page.getByText('cost unknown').waitFor();

    await page.getByRole('button', { name: 'Source 1: handbook.txt' }).click();
    const source = page.getByRole('dialog', { name: 'Source 1: handbook.txt' });
    await source.getByText(HANDBOOK).waitFor();
    await source.getByRole('link', { name: 'Store policies' }).waitFor();
    await expectAccessible(page, 'a thread with an answer and an open citation');
    await page.keyboard.press('Escape');
    await source.waitFor({ state: 'hidden' });

    const voteUp = page.getByRole('button', { name: 'Vote up' });
    await voteUp.click();
    await poll(() => voteUp.getAttribute('aria-pressed')).toBe('true');
    await page.getByText('1 up, 0 down').waitFor();

    await page.getByRole('button', { name: 'Comments (0)' }).click();
    await page.getByRole('textbox', { name: 'Comment' }).fill('The thirty days are right.');
    await page.getByRole('button', { name: 'Add comment' }).click();
    await page.getByRole('listitem').filter({ hasText: 'The thirty days are right.' }).waitFor();
    await page.getByRole('button', { name: 'Comments (1)' }).waitFor();

    const threadPath = new URL(page.url()).pathname;
    await page.reload();
    await page.getByRole('heading', { name: STARTER, level: 2 }).waitFor();
    await poll(() => page.locator('.answer-text').last().textContent()).toBe(ANSWER);
    expect(new URL(page.url()).pathname).toBe(threadPath);
    await poll(() => page.getByRole('button', { name: 'Vote up' }).getAttribute('aria-pressed')).toBe('true');

    await page.getByRole('button', { name: 'New thread' }).click();
    await page.getByRole('heading', { name: 'New thread' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/agents/${agentId}/chat`);
    await page.getByRole('button', { name: STARTER, exact: true }).waitFor();
  });

  it('stops a stalled answer: what arrived stays, marked as stopped, and the question box is free again', async () => {
    const { fake } = browser.server();
    fake.answer = 'One two three four five six seven eight.';
    fake.chunks = undefined;
    const stall = fake.stallNext({ afterChunks: 2 });
    const page = await openChat();
    await page.goto(`/agents/${agentId}/chat`);
    const question = page.getByRole('textbox', { name: 'Your question' });
    await question.fill('Count to eight');
    await question.press('Enter');
    const answer = page.locator('.answer-text').last();
    await poll(() => answer.textContent()).toBe('One two ');
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByText('Stopped', { exact: true }).waitFor();
    await stall.disconnected;
    stall.release();
    expect(await answer.textContent()).toBe('One two ');
    expect(await question.inputValue()).toBe('');
    await page.getByRole('button', { name: 'Send' }).waitFor();
    // Stored as stopped too: the server recorded the answer as far as it got.
    await poll(() => new URL(page.url()).pathname).toMatch(/\/chat\/\d+$/);
    await page.reload();
    await page.getByText('Stopped', { exact: true }).waitFor();
    expect(await page.locator('.answer-text').last().textContent()).toBe('One two ');
  });

  it('keeps the question in its box when the ask is refused, and says why where the answer would be', async () => {
    const { admin } = browser.server();
    const inactive = await agentWith(admin, [corpusId], { name: 'Retired helper', llm_configuration_id: browser.server().modelConfigurationId });
    const page = await openChat();
    await page.goto(`/agents/${inactive.id}/chat`);
    const question = page.getByRole('textbox', { name: 'Your question' });
    await question.fill('Are you there?');
    // Made inactive after the page loaded: the server's 409 decides.
    expect((await admin.api.post(`/api/v2/agents/${inactive.id}/deactivate`)).status).toBe(200);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('alert').filter({ hasText: /inactive/i }).waitFor();
    expect(await question.inputValue()).toBe('Are you there?');
  });

  it('keeps the question when the session has ended: signing in again in the dialog, the question is sent as typed', async () => {
    const { fake } = browser.server();
    fake.answer = ANSWER;
    fake.chunks = undefined;
    const { page, context } = await browser.open();
    await signIn(page, browser.server().email, browser.server().password);
    await page.goto(`/agents/${agentId}/chat`);
    const question = page.getByRole('textbox', { name: 'Your question' });
    await question.fill('Can I return a gift?');
    await context.clearCookies();
    await page.getByRole('button', { name: 'Send' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your session has ended' });
    await dialog.waitFor();
    await dialog.getByLabel('E-mail').fill(browser.server().email);
    await dialog.getByLabel('Password').fill(browser.server().password);
    await dialog.getByRole('button', { name: 'Sign in again' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await question.inputValue()).toBe('Can I return a gift?');
    await page.getByRole('button', { name: 'Send' }).click();
    await poll(() => page.locator('.answer-text').last().textContent()).toBe(ANSWER);
    expect(await question.inputValue()).toBe('');
  });

  it('renames and deletes a thread', async () => {
    const { fake } = browser.server();
    fake.answer = 'Gift cards never expire.';
    fake.chunks = undefined;
    const page = await openChat();
    await page.goto(`/agents/${agentId}/chat`);
    const question = page.getByRole('textbox', { name: 'Your question' });
    await question.fill('Do gift cards expire?');
    await question.press('Enter');
    await page.getByRole('heading', { name: 'Do gift cards expire?', level: 2 }).waitFor();
    const threads = page.getByRole('complementary', { name: 'Threads' });

    await threads.getByRole('button', { name: 'Actions for “Do gift cards expire?”' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename thread' });
    await rename.getByRole('textbox', { name: 'Title' }).fill('Gift cards');
    await rename.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Gift cards', level: 2 }).waitFor();
    await threads.getByRole('link', { name: /^Gift cards/ }).waitFor();

    await threads.getByRole('button', { name: 'Actions for “Gift cards”' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete this thread?' }).getByRole('button', { name: 'Delete thread' }).click();
    await page.getByRole('heading', { name: 'New thread', level: 2 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/agents/${agentId}/chat`);
    await threads.getByRole('link', { name: /^Gift cards/ }).waitFor({ state: 'detached' });
  });

  it('shows a tool call where it happened, and the files given to the thread', async () => {
    const { admin, fake, modelConfigurationId } = browser.server();
    const tool = await admin.api.post(`/api/v2/organizations/${admin.organizationId}/tools/attachment`, {
      name: 'read_files',
      description: 'Reads the files given in the chat',
      config: {},
    });
    expect(tool.status).toBe(201);
    const toolAgent = await agentWith(admin, [corpusId], { name: 'File reader', llm_configuration_id: modelConfigurationId, tool_ids: [tool.body.data.id] });
    const page = await openChat();
    await page.goto(`/agents/${toolAgent.id}/chat`);

    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Attach files' }).click();
    await (await chooser).setFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('The meeting moved to Thursday at ten.') });
    const files = page.getByRole('region', { name: 'Files of this thread' });
    const chip = files.getByRole('listitem').filter({ hasText: 'notes.txt' });
    await chip.waitFor();
    await poll(() => new URL(page.url()).pathname).toMatch(/\/chat\/\d+$/);

    fake.toolCallNext('read_files', {});
    fake.answer = 'You gave one file, notes.txt.';
    fake.chunks = undefined;
    const question = page.getByRole('textbox', { name: 'Your question' });
    await question.fill('Which files did I give you?');
    await page.getByRole('button', { name: 'Send' }).click();
    await poll(() => page.locator('.answer-text').last().textContent()).toContain('You gave one file, notes.txt.');
    const call = page.getByRole('button', { name: /Tool read_files/ });
    await call.click();
    await page.getByText(/attachment_id \d+: notes\.txt/).waitFor();
    await expectAccessible(page, 'an answer with an open tool call');

    await files.getByRole('button', { name: 'Remove notes.txt' }).click();
    await chip.waitFor({ state: 'detached' });
  });

  it('shows a guardrail that blocked the question, where the answer would be', async () => {
    const { admin, modelConfigurationId } = browser.server();
    const guardrail = await admin.api.post('/api/v2/guardrails', {
      name: 'No competitors',
      type: 'blocked_terms',
      stages: ['input'],
      action: 'block',
      config: { terms: ['acme corp'] },
    });
    expect(guardrail.status).toBe(201);
    const guarded = await agentWith(admin, [corpusId], { name: 'Guarded helper', llm_configuration_id: modelConfigurationId, guardrail_ids: [guardrail.body.data.id] });
    const page = await openChat();
    await page.goto(`/agents/${guarded.id}/chat`);
    const question = page.getByRole('textbox', { name: 'Your question' });
    await question.fill('Is ACME Corp cheaper?');
    await question.press('Enter');
    await page.getByRole('alert').filter({ hasText: /Blocked by the guardrail .No competitors./ }).waitFor();
    const mark = page.getByRole('button', { name: /Guardrail No competitors blocked/ });
    await mark.click();
    await page.getByRole('listitem').filter({ hasText: 'BLOCKED_TERM' }).waitFor();
    await expectAccessible(page, 'a blocked answer with its guardrail open');
  });

  it('says plainly when no model is configured, and answers with the offline answerer', async () => {
    const { admin, modelConfigurationId } = browser.server();
    const configurations = `/api/v2/organizations/${admin.organizationId}/llm-configurations/${modelConfigurationId}`;
    const offline = await agentWith(admin, [corpusId], { name: 'Offline helper' });
    expect((await admin.api.put(configurations, { is_default: false })).status).toBe(200);
    try {
      const page = await openChat();
      await page.goto(`/agents/${offline.id}/chat`);
      await page.getByText('No language model is configured for this agent.').waitFor();
      const question = page.getByRole('textbox', { name: 'Your question' });
      await question.fill('How long do I have to return something?');
      await question.press('Enter');
      await page.getByText('offline answerer (no model configured)').waitFor();
      await poll(() => page.locator('.answer-text').last().textContent()).toMatch(/^No language model is configured for this agent/);
      await page.getByRole('button', { name: 'Source 1: handbook.txt' }).waitFor();
    } finally {
      expect((await admin.api.put(configurations, { is_default: true })).status).toBe(200);
    }
  });

  it('fits a 390 px wide screen: the threads fold behind a button', async () => {
    const { fake } = browser.server();
    fake.answer = ANSWER;
    fake.chunks = undefined;
    const page = await openChat(PHONE);
    await page.goto(`/agents/${agentId}/chat`);
    await page.getByRole('button', { name: STARTER, exact: true }).click();
    await poll(() => page.locator('.answer-text').last().textContent()).toBe(ANSWER);
    await page.getByText('model fake-model').waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'a thread with an answer on a phone');

    const threads = page.getByRole('complementary', { name: 'Threads' });
    const toggle = threads.getByRole('button', { name: /^Threads/ });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await threads.getByRole('link').first().isVisible()).toBe(false);
    await toggle.click();
    await threads.getByRole('link').first().waitFor();
    await page.getByRole('button', { name: 'Source 1: handbook.txt' }).click();
    await page.getByRole('dialog', { name: 'Source 1: handbook.txt' }).getByText(HANDBOOK).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
  });

  it('renders a long streamed answer whole: 5,000 pieces, the text on the page equals the text sent', async () => {
    const { admin, fake } = browser.server();
    // Room for the whole answer: the default most tokens of an answer would cut it.
    const roomy = await createModelConfiguration(admin, fake, { name: 'Roomy fake model', context_window: 128_000, max_answer_tokens: 20_000 });
    const longAgent = await agentWith(admin, [corpusId], { name: 'Long talker', llm_configuration_id: roomy.id, max_tokens: 20_000 });
    // Paragraphs of a thousand words with sentences of three hundred, and a citation on the way.
    const chunks = Array.from({ length: 5_000 }, (_, index) =>
      index % 1000 === 999 ? `word${index}.\n\n` : index % 300 === 299 ? `word${index}. ` : index === 2_500 ? `word${index} [1] ` : `word${index} `,
    );
    const sent = chunks.join('');
    fake.chunks = chunks;
    fake.answer = sent;
    try {
      const page = await openChat();
      await page.goto(`/agents/${longAgent.id}/chat`);
      const question = page.getByRole('textbox', { name: 'Your question' });
      await question.fill('Tell me at length about returns and receipts');
      await question.press('Enter');
      await page.getByText('model fake-model').waitFor({ timeout: PROCESSING_MS });
      const rendered = await page.locator('.answer-text').last().evaluate((element) =>
        [...element.querySelectorAll('p')].map((paragraph) => paragraph.textContent).join('\n\n'),
      );
      expect(rendered).toBe(sent);
      await page.getByRole('button', { name: 'Source 1: handbook.txt' }).waitFor();
    } finally {
      fake.chunks = undefined;
    }
  });
});

// The agent builder and the agent's image in a real browser, against the loopback fake model (which
// answers the builder's draft as JSON, as the builder's own tests script it) and a fake images API:
// describe an agent, review every field the draft proposes and change some, create it, land on its
// page; make its image there and see it; the feature flags that gate both said when off; 390 px.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { avatarPng } from '../../src/providers/images/avatar.js';
import { createCorpus } from '../support/corpora.js';
import { startListener, type Listener } from '../support/listeners.js';
import { CHROMIUM_PATH } from './support/chromium.js';
import { BROWSER_TEST, expectAccessible, overflowsSideways, PHONE, signIn, useConsoleBrowser } from './support/console-browser.js';

/** What the fake image model draws: a real PNG. */
const MODEL_PNG = avatarPng('model picture');
const prompts: string[] = [];
let images: Listener;
const env: Record<string, string> = {};

beforeAll(async () => {
  images = await startListener((request, response, body) => {
    if (request.url !== '/v1/images/generations') return void response.writeHead(404).end();
    prompts.push((JSON.parse(body.toString('utf8')) as { prompt: string }).prompt);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ created: 1, data: [{ b64_json: MODEL_PNG.toString('base64') }] }));
  });
  Object.assign(env, { EGRESS_ALLOWED_HOSTS: `127.0.0.1:${images.port}`, IMAGE_BASE_URL: `http://127.0.0.1:${images.port}/v1`, IMAGE_API_KEY: 'sk-image-0123456789abcdefghij', IMAGE_MODEL: 'fake-image' });
});
afterAll(async () => {
  await images?.close();
});

/** The draft the fake model answers: a create-agent body, as the builder asks its model for. */
function modelDraft(corpusId: number): string {
  return JSON.stringify({
    name: 'Returns helper',
    description: 'Answers questions about returns and refunds',
    instructions: 'Answer from the returns handbook, politely and briefly. Cite the handbook.',
    conversation_starters: ['How do I return a parcel?', 'When is my refund paid?'],
    corpus_ids: [corpusId],
    tool_ids: [],
    guardrail_ids: [],
  });
}

async function describeAgent(page: Page, text: string): Promise<void> {
  await page.getByLabel('What should the agent do?').fill(text);
  await page.getByRole('button', { name: 'Draft the agent' }).click();
  await page.getByRole('heading', { name: 'Review the draft', level: 2 }).waitFor();
}

describe.skipIf(CHROMIUM_PATH === undefined)('console: agent builder and images', BROWSER_TEST, () => {
  const browser = useConsoleBrowser(env);

  it('drafts an agent from a description, shows every proposed field for review, creates it, and makes its image', async () => {
    const server = browser.server();
    const corpus = await createCorpus(server.admin, { name: 'Returns handbook' });
    server.fake.answer = modelDraft(corpus.id);
    const { page } = await browser.open();
    await signIn(page, server.email, server.password);
    await page.getByRole('link', { name: 'Describe an agent' }).click();
    await page.getByRole('heading', { name: 'Describe an agent', level: 1 }).waitFor();
    await expectAccessible(page, 'the agent builder');

    await describeAgent(page, 'An assistant for the support team that answers questions about returns from the handbook.');
    expect(server.fake.chatRequests().length).toBeGreaterThan(0);
    await page.getByText(/Drafted by fake-model: \d+ tokens/).waitFor();
    // Every field the draft proposes is shown, editable.
    expect(await page.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe('Returns helper');
    expect(await page.getByRole('textbox', { name: 'Description' }).inputValue()).toBe('Answers questions about returns and refunds');
    expect(await page.getByRole('textbox', { name: 'Instructions' }).inputValue()).toContain('Answer from the returns handbook');
    expect(await page.getByRole('textbox', { name: 'Starter 1', exact: true }).inputValue()).toBe('How do I return a parcel?');
    expect(await page.getByRole('textbox', { name: 'Starter 2', exact: true }).inputValue()).toBe('When is my refund paid?');
    expect(await page.getByRole('checkbox', { name: /Returns handbook/ }).isChecked()).toBe(true);
    await expectAccessible(page, 'the draft under review');

    // Changed before creating: the name, a starter, the model.
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Returns desk helper');
    await page.getByRole('textbox', { name: 'Starter 2', exact: true }).fill('How long do refunds take?');
    await page.getByRole('button', { name: /LLM configuration/ }).click();
    await page.getByRole('option', { name: /^Fake model/ }).click();
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.waitForURL(/\/agents\/\d+$/);
    await page.getByText('Agent created.').waitFor();
    const agentId = Number(new URL(page.url()).pathname.split('/').pop());
    const agent = (await server.admin.api.get(`/api/v2/agents/${agentId}`)).body.data;
    expect(agent).toMatchObject({
      name: 'Returns desk helper',
      description: 'Answers questions about returns and refunds',
      conversation_starters: ['How do I return a parcel?', 'How long do refunds take?'],
      corpus_ids: [corpus.id],
      llm_configuration_id: server.modelConfigurationId,
    });

    // Its image, made by the image model from a description, shown once made.
    await page.getByLabel('Describe an image').fill('A friendly parcel with a smile');
    await page.getByRole('button', { name: 'Make an image' }).click();
    await page.getByRole('img', { name: 'Image of Returns desk helper' }).waitFor();
    expect(prompts).toEqual(['A friendly parcel with a smile']);
    expect(await page.getByRole('img', { name: 'Image of Returns desk helper' }).evaluate((image) => {
      const picture = image as unknown as { complete: boolean; naturalWidth: number };
      return picture.complete && picture.naturalWidth > 0;
    })).toBe(true);
    await page.getByRole('button', { name: 'Make a new image' }).waitFor();
    await expectAccessible(page, 'the agent’s page with its image');
  });

  it('says when drafting or image generation is off', async () => {
    const server = browser.server();
    const { page } = await browser.open();
    await signIn(page, server.email, server.password);
    const setFlag = async (flag: string, enabled: boolean) => expect((await server.admin.api.put(`/api/v2/feature-flags/${flag}`, { enabled })).status).toBe(200);
    await setFlag('chat-agent-creation', false);
    await setFlag('image-generation', false);
    try {
      await page.goto('/agents/builder');
      await page.getByText('Drafting agents from a description is off for this organization').waitFor();
      await page.getByRole('link', { name: 'New agent by hand' }).waitFor();
      await expectAccessible(page, 'the builder with drafting off');
      const agent = (await server.admin.api.post('/api/v2/agents', { name: 'No pictures here', instructions: 'Answer.' })).body.data;
      await page.goto(`/agents/${agent.id}`);
      await page.getByText('Image generation is off for this organization').waitFor();
      expect(await page.getByRole('button', { name: 'Make an image' }).count()).toBe(0);
    } finally {
      await setFlag('chat-agent-creation', true);
      await setFlag('image-generation', true);
    }
  });

  it('fits a phone’s width', async () => {
    const server = browser.server();
    const corpus = await createCorpus(server.admin, { name: 'Phone handbook' });
    server.fake.answer = modelDraft(corpus.id);
    const { page } = await browser.open({ viewport: PHONE });
    await signIn(page, server.email, server.password);
    await page.goto('/agents/builder');
    await describeAgent(page, 'Answers questions from the phone handbook.');
    await page.getByRole('textbox', { name: 'Name', exact: true }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the draft under review at 390 px');
  });
});

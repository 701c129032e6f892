// A model provider's failure told to whoever asked: a member or viewer, who may not read the LLM
// configuration, never learns its base_url, host or port, nor what the provider echoed back (in the
// answer, the stored response, the stream's error event and the OpenAI-compatible door); owners and
// admins, who read the configuration's settings anyway, are told the provider's address and words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { agentWith, askStreaming, createModelConfiguration } from './support/ask.js';
import { databaseKinds } from './support/databases.js';
import { createUser, type TestUser } from './support/factories.js';
import { startFakeOpenAi, type FakeLlmServer } from './support/fake-openai.js';
import { startListener } from './support/listeners.js';

describe.each(databaseKinds)('model provider failures told to the caller (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeLlmServer;
  let owner: TestUser;
  let member: TestUser;
  let failingAgent: number;
  let unreachableAgent: number;
  let closedHost: string;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    // A port nothing listens on any more: the connection is refused.
    const gone = await startListener();
    closedHost = `127.0.0.1:${gone.port}`;
    await gone.close();
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: `${fake.host},${closedHost}`, LIMIT_LLM_TIMEOUT_MS: '5000' });
    owner = await createUser(t.app, { role: 'owner' });
    member = await createUser(t.app, { role: 'member' });
    const failing = await createModelConfiguration(owner, fake);
    const unreachable = await createModelConfiguration(owner, fake, { base_url: `http://${closedHost}/v1` });
    failingAgent = (await agentWith(owner, [], { llm_configuration_id: failing.id })).id;
    unreachableAgent = (await agentWith(owner, [], { llm_configuration_id: unreachable.id })).id;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  /** Nothing that says where the provider is: its URL, host, port. */
  const expectNoAddress = (text: string, host: string) => {
    const [hostname, port] = host.split(':') as [string, string];
    expect(text).not.toContain(hostname);
    expect(text).not.toContain(`:${port}`);
    expect(text).not.toMatch(/https?:\/\//);
  };
  const echoFailure = () => fake.failNext(500, { times: 10, message: `upstream ${fake.baseUrl} on host ${fake.host} said: model secret-model-name is overloaded` });

  it('tells a member that the provider failed, without its base_url, host, port or words, wherever the failure shows', async () => {
    echoFailure();
    const reply = await member.api.post(`/api/v2/agents/${failingAgent}/responses`, { query: 'Hello?' });
    expect(reply.status, reply.text).toBe(502);
    expect(reply.body.message).toMatch(/The model provider failed \(HTTP 500\)/);
    expectNoAddress(reply.text, fake.host);
    expect(reply.text).not.toContain('secret-model-name');

    echoFailure();
    const streamed = await askStreaming(t.app, member, failingAgent, { query: 'Hello again?' });
    const error = streamed.events.find((event) => event.event === 'error');
    expect(error?.data.message).toMatch(/The model provider failed/);
    expectNoAddress(streamed.text, fake.host);
    const responseId = streamed.events.find((event) => event.event === 'response.created')!.data.id;
    const stored = await member.api.get(`/api/v2/responses/${responseId}`);
    expect(stored.status).toBe(200);
    expect(stored.body.data).toMatchObject({ status: 'failed', error: expect.stringMatching(/The model provider failed \(HTTP 500\)/) });
    expectNoAddress(stored.text, fake.host);

    echoFailure();
    const openai = await member.api.post('/api/v2/openai/chat/completions', { model: `agent-${failingAgent}`, messages: [{ role: 'user', content: 'Hi' }] });
    expect(openai.status).toBe(502);
    expectNoAddress(openai.text, fake.host);
  });

  it('tells a member that the provider cannot be reached, without where it is', async () => {
    const reply = await member.api.post(`/api/v2/agents/${unreachableAgent}/responses`, { query: 'Hello?' });
    expect(reply.status, reply.text).toBe(502);
    expect(reply.body.message).toMatch(/The model provider cannot be reached/);
    expectNoAddress(reply.text, closedHost);
  });

  it('tells an owner, who reads the configuration anyway, where the provider is and what it said', async () => {
    echoFailure();
    const reply = await owner.api.post(`/api/v2/agents/${failingAgent}/responses`, { query: 'Hello?' });
    expect(reply.status).toBe(502);
    expect(reply.body.message).toContain(fake.baseUrl);
    expect(reply.body.message).toContain('overloaded');
    const unreachable = await owner.api.post(`/api/v2/agents/${unreachableAgent}/responses`, { query: 'Hello?' });
    expect(unreachable.body.message).toContain(closedHost);
  });
});

// Fixtures for asking agents: an LLM configuration pointing at a fake provider, an agent connected
// to corpora holding given texts, and an ask read as its Server-Sent Events.
import type { App } from '../../src/app.js';
import { createCorpus, uploadText, waitForProcessing } from './corpora.js';
import { createAgent, type TestUser } from './factories.js';
import { FAKE_LLM_KEY, type FakeLlmServer } from './fake-openai.js';

export async function createModelConfiguration(owner: TestUser, fake: FakeLlmServer, overrides: Record<string, unknown> = {}) {
  const reply = await owner.api.post(`/api/v2/organizations/${owner.organizationId}/llm-configurations`, {
    name: `Fake ${Math.random().toString(36).slice(2, 8)}`,
    provider: 'openai',
    model: 'fake-model',
    base_url: fake.baseUrl,
    api_key: FAKE_LLM_KEY,
    ...overrides,
  });
  if (reply.status !== 201) throw new Error(`createModelConfiguration: ${reply.status} ${reply.text}`);
  return reply.body.data as { id: number; name: string };
}

/** A corpus holding the texts, indexed; its id and its documents' ids in the order given. */
export async function corpusWith(owner: TestUser, texts: string[]) {
  const corpus = await createCorpus(owner);
  const ids: number[] = [];
  for (const text of texts) ids.push((await uploadText(owner, corpus.id, text)).id);
  await waitForProcessing(owner, corpus.id, ids);
  return { corpusId: corpus.id, documentIds: ids };
}

/** An agent answering with the configuration (null: the organization's default), connected to the corpora. */
export async function agentWith(owner: TestUser, corpusIds: number[], overrides: Record<string, unknown> = {}) {
  const agent = await createAgent(owner, overrides);
  for (const corpusId of corpusIds) {
    const reply = await owner.api.post(`/api/v2/corpora/${corpusId}/agents`, { agent_id: agent.id });
    if (reply.status !== 200) throw new Error(`connect: ${reply.status} ${reply.text}`);
  }
  return agent;
}

export interface StreamEvent {
  id: number;
  event: string;
  data: any;
}

/** Parses a whole text/event-stream body. */
export function parseEvents(text: string): StreamEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const fields = new Map<string, string>();
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        fields.set(line.slice(0, colon), line.slice(colon + 1).replace(/^ /, ''));
      }
      return { id: Number(fields.get('id')), event: fields.get('event') ?? 'message', data: JSON.parse(fields.get('data') ?? 'null') };
    });
}

/** Asks with stream: true through the app and reads the events to the end. */
export async function askStreaming(app: App, user: TestUser, agentId: number, body: Record<string, unknown>) {
  const response = await app.inject({
    method: 'POST',
    url: `/api/v2/agents/${agentId}/responses`,
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ ...body, stream: true }),
  });
  return { status: response.statusCode, headers: response.headers, text: response.body, events: response.statusCode === 200 ? parseEvents(response.body) : [] };
}

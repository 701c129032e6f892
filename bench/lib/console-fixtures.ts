// What the console suite opens, arranged through the API as a person would through the console: a
// model configuration on the fake model, a corpus with one indexed document, an agent answering from
// it, and a thread holding one answered question (with its citation).
import { FAKE_LLM_KEY, type FakeLlmServer } from '../../test/support/fake-openai.js';
import type { ApiClient } from './api-client.js';

const INDEX_TIMEOUT_MS = 60_000;

export const HANDBOOK = 'Returns are accepted within thirty days of purchase when the receipt is shown at the counter.';
export const QUESTION = 'What is the return policy?';
/** The arranged answer; the suite knows the thread is shown once this text is on the page. */
export const ANSWER = 'Returns are accepted within thirty days of purchase, with the receipt [1].';

export interface ConsoleFixtures {
  agentId: number;
  /** The thread with one answered question. */
  threadId: number;
}

async function waitUntilIndexed(client: ApiClient, corpusId: number, documentId: number): Promise<void> {
  const deadline = Date.now() + INDEX_TIMEOUT_MS;
  for (;;) {
    const document = await client.call<{ step: string; is_failed: boolean; error: string | null }>('GET', `/api/v2/corpora/${corpusId}/documents/${documentId}`);
    if (document.step === 'indexed') return;
    if (document.is_failed) throw new Error(`document ${documentId} failed: ${document.error}`);
    if (Date.now() > deadline) throw new Error(`document ${documentId} not indexed within ${INDEX_TIMEOUT_MS} ms (${document.step})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function arrangeAnsweredThread(client: ApiClient, fake: FakeLlmServer): Promise<ConsoleFixtures> {
  const me = await client.call<{ organization_id: number }>('GET', '/api/v2/users/me');
  // Room for a long answer: the server asks the model for at most the lower of these two.
  const configuration = await client.call<{ id: number }>(
    'POST',
    `/api/v2/organizations/${me.organization_id}/llm-configurations`,
    { name: 'Fake model', provider: 'openai', model: 'fake-model', base_url: fake.baseUrl, api_key: FAKE_LLM_KEY, context_window: 128_000, max_answer_tokens: 100_000 },
    201,
  );
  const corpus = await client.call<{ id: number }>('POST', '/api/v2/corpora', { name: 'Store policies' }, 201);
  const uploaded = await client.call<{ items: { id: number }[] }>('POST', `/api/v2/corpora/${corpus.id}/documents`, { upload_from: 'text', text: HANDBOOK, name: 'handbook.txt' }, 201);
  await waitUntilIndexed(client, corpus.id, uploaded.items[0]!.id);
  const agent = await client.call<{ id: number }>(
    'POST',
    '/api/v2/agents',
    { name: 'Store helper', instructions: 'Answer from the documents.', llm_configuration_id: configuration.id, max_tokens: 100_000 },
    201,
  );
  await client.call('POST', `/api/v2/corpora/${corpus.id}/agents`, { agent_id: agent.id });
  fake.answerNext(ANSWER);
  const answered = await client.call<{ thread_id: number }>('POST', `/api/v2/agents/${agent.id}/responses`, { query: QUESTION }, 201);
  return { agentId: agent.id, threadId: answered.thread_id };
}

// Passages a retrieval tool finds become citations of the answer like the passages retrieved for the
// question: numbered after them, cited with the same [n] marks, collected into the answer's citations
// (document, corpus, source, passage) in the answer given, the stream and the stored response. A number
// the model makes up is still dropped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { agentWith, askStreaming, corpusWith, createModelConfiguration } from './support/ask.js';
import { databaseKinds } from './support/databases.js';
import { createUser, type TestUser } from './support/factories.js';
import { startFakeOpenAi, type FakeLlmServer } from './support/fake-openai.js';

describe.each(databaseKinds)('citations of passages a retrieval tool found (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeLlmServer;
  let owner: TestUser;
  let agentId: number;
  let refunds: { corpusId: number; documentIds: number[] };
  let warranty: { corpusId: number; documentIds: number[] };

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: fake.host });
    owner = await createUser(t.app, { role: 'owner' });
    const configuration = await createModelConfiguration(owner, fake);
    refunds = await corpusWith(owner, ['Refund policy: the refund window is thirty days from delivery.']);
    warranty = await corpusWith(owner, ['Warranty terms: repairs are covered for two years after purchase.']);
    const tool = await owner.api.post(`/api/v2/organizations/${owner.organizationId}/tools/retrieval`, { name: 'search_manuals', config: { corpus_ids: [warranty.corpusId] } });
    expect(tool.status, tool.text).toBe(201);
    // The agent's own corpus gives the question's passage [1]; the tool's corpus is reached only through the tool.
    agentId = (await agentWith(owner, [refunds.corpusId], { llm_configuration_id: configuration.id, tool_ids: [tool.body.data.id] })).id;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const expectedCitations = () => [
    expect.objectContaining({ number: 1, document_id: refunds.documentIds[0], corpus_id: refunds.corpusId, passage: expect.stringContaining('thirty days') }),
    expect.objectContaining({ number: 2, document_id: warranty.documentIds[0], corpus_id: warranty.corpusId, source: expect.any(String), passage: expect.stringContaining('two years'), score: expect.any(Number) }),
  ];

  it('numbers the tool’s passages after the question’s and cites both in the answer', async () => {
    fake.toolCallNext('search_manuals', { query: 'warranty repairs' });
    fake.answerNext('Refunds within thirty days [1]; repairs for two years [2]; and more [7].');
    const reply = await owner.api.post(`/api/v2/agents/${agentId}/responses`, { query: 'What is the refund window?' });
    expect(reply.status, reply.text).toBe(201);
    const response = reply.body.data;
    expect(response.answer).toBe('Refunds within thirty days [1]; repairs for two years [2]; and more .');
    expect(response.citations).toEqual(expectedCitations());

    // The model read the tool's passage under the number it then cited.
    const toolMessage = fake.chatRequests().at(-1)!.body.messages.at(-1);
    expect(toolMessage.role).toBe('tool');
    expect(toolMessage.content).toMatch(/like \[2\]\.\n\n\[2\] .+\nWarranty terms/);

    const stored = await owner.api.get(`/api/v2/responses/${response.id}`);
    expect(stored.body.data.citations).toEqual(expectedCitations());
  });

  it('gives the same citations in the stream', async () => {
    fake.toolCallNext('search_manuals', { query: 'warranty repairs' });
    fake.answerNext('Thirty days [1], two years [2].');
    const { status, events } = await askStreaming(t.app, owner, agentId, { query: 'What is the refund window?' });
    expect(status).toBe(200);
    const completed = events.find((event) => event.event === 'response.completed')!.data;
    expect(completed.citations).toEqual(expectedCitations());
  });
});

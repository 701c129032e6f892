// What decides how an agent answers is part of its configuration: the LLM configuration, the
// connected corpora and the retrieval settings. Each change is versioned and recorded; restores bring
// them back, dropping what has been deleted since and saying so; records written before these fields
// existed still restore.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../src/clock.js';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';

describe.each(databaseKinds)('agent configuration (%s)', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;
  let stranger: TestUser;

  /** An LLM configuration row; its routes are tested in test/llm-configurations.test.ts. */
  async function llmConfiguration(organizationId: number, name: string): Promise<number> {
    const at = now();
    const row = await t.app.database.db
      .insertInto('llm_configurations')
      .values({ organization_id: organizationId, name, provider: 'openai', model: 'gpt-test', created_on: at, created_by: admin.id, modified_on: at, modified_by: admin.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const history = async (agentId: number) => (await admin.api.get(`/api/v2/agents/${agentId}/history?page_size=100`)).body.data.items as { history_id: number; checkpoint_name: string }[];

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await createUser(t.app, { role: 'admin' });
    member = await createUser(t.app, { role: 'member' });
    stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
  });
  afterAll(() => t.close());

  it('creates an agent with its model, corpora and retrieval settings; corpora come back distinct and ascending', async () => {
    const [a, b] = [await createCorpus(admin), await createCorpus(admin)];
    const llmId = await llmConfiguration(admin.organizationId, 'Main model');
    const agent = await createAgent(admin, { llm_configuration_id: llmId, corpus_ids: [b.id, a.id, b.id], retrieval: { passages: 8 } });
    expect(agent).toMatchObject({ llm_configuration_id: llmId, corpus_ids: [a.id, b.id], retrieval: { passages: 8, min_score: 0 } });
    expect((await admin.api.get(`/api/v2/corpora/${a.id}/agents`)).body.data.items.map((item: { id: number }) => item.id)).toEqual([agent.id]);
    const plain = await createAgent(admin);
    expect(plain).toMatchObject({ llm_configuration_id: null, corpus_ids: [], retrieval: { passages: 5, min_score: 0 } });
  });

  it('refuses corpora and configurations the caller may not name, and changes nothing', async () => {
    const agent = await createAgent(member);
    const foreignCorpus = await createCorpus(stranger);
    const hidden = await createCorpus(admin);
    const foreignLlm = await llmConfiguration(stranger.organizationId, 'Theirs');
    for (const body of [{ corpus_ids: [foreignCorpus.id] }, { corpus_ids: [hidden.id] }, { corpus_ids: [999_999] }, { llm_configuration_id: foreignLlm }]) {
      const reply = await member.api.put(`/api/v2/agents/${agent.id}`, body);
      expect(reply.status, JSON.stringify(body)).toBe(404);
    }
    for (const body of [{ retrieval: { passages: 0 } }, { retrieval: { min_score: -1 } }, { corpus_ids: ['x'] }, { llm_configuration_id: 0 }]) {
      expect((await member.api.put(`/api/v2/agents/${agent.id}`, body)).status, JSON.stringify(body)).toBe(400);
    }
    const after = (await member.api.get(`/api/v2/agents/${agent.id}`)).body.data;
    expect(after).toMatchObject({ version: agent.version, corpus_ids: [], llm_configuration_id: null });
  });

  it('connecting from the corpus side is a change of the agent: versioned and recorded', async () => {
    const corpus = await createCorpus(admin, { name: `Manuals ${kind}` });
    const agent = await createAgent(admin);
    expect((await admin.api.post(`/api/v2/corpora/${corpus.id}/agents`, { agent_id: agent.id })).status).toBe(200);
    expect((await admin.api.post(`/api/v2/corpora/${corpus.id}/agents`, { agent_id: agent.id })).status).toBe(200);
    const connected = (await admin.api.get(`/api/v2/agents/${agent.id}`)).body.data;
    expect(connected).toMatchObject({ corpus_ids: [corpus.id], version: agent.version + 1 });
    expect((await history(agent.id))[0]!.checkpoint_name).toBe(`Connected to corpus Manuals ${kind}`);
    expect((await admin.api.delete(`/api/v2/corpora/${corpus.id}/agents/${agent.id}`)).status).toBe(200);
    expect((await admin.api.delete(`/api/v2/corpora/${corpus.id}/agents/${agent.id}`)).status).toBe(404);
    const disconnected = (await admin.api.get(`/api/v2/agents/${agent.id}`)).body.data;
    expect(disconnected).toMatchObject({ corpus_ids: [], version: agent.version + 2 });
  });

  it('history records, differences and restores cover the model, corpora and retrieval settings', async () => {
    const [a, b] = [await createCorpus(admin), await createCorpus(admin)];
    const llmId = await llmConfiguration(admin.organizationId, `Restorable ${kind}`);
    const agent = await createAgent(admin, { corpus_ids: [a.id], llm_configuration_id: llmId, retrieval: { passages: 3, min_score: 0.5 } });
    const first = (await history(agent.id))[0]!.history_id;
    await admin.api.put(`/api/v2/agents/${agent.id}`, { corpus_ids: [b.id], llm_configuration_id: null, retrieval: { passages: 9, min_score: 0 } });
    const record = (await admin.api.get(`/api/v2/agents/${agent.id}/history/${first}`)).body.data;
    expect(record.snapshot).toMatchObject({ corpus_ids: [a.id], llm_configuration_id: llmId, retrieval: { passages: 3, min_score: 0.5 } });
    expect(record.differences.map((d: { field: string }) => d.field).sort()).toEqual(['corpus_ids', 'llm_configuration_id', 'retrieval']);
    const restored = await admin.api.put(`/api/v2/agents/${agent.id}/history`, { history_id: first });
    expect(restored.status).toBe(200);
    expect(restored.body.message).toBe('Agent restored');
    expect((await admin.api.get(`/api/v2/agents/${agent.id}`)).body.data).toMatchObject({ corpus_ids: [a.id], llm_configuration_id: llmId, retrieval: { passages: 3, min_score: 0.5 } });
  });

  it('a restore to a record naming a deleted corpus and configuration restores the rest and says what it dropped', async () => {
    const [kept, doomed] = [await createCorpus(admin), await createCorpus(admin)];
    const llmId = await llmConfiguration(admin.organizationId, `Doomed ${kind}`);
    const agent = await createAgent(admin, { instructions: 'Old instructions', corpus_ids: [kept.id, doomed.id], llm_configuration_id: llmId });
    const first = (await history(agent.id))[0]!.history_id;
    await admin.api.put(`/api/v2/agents/${agent.id}`, { instructions: 'New instructions', corpus_ids: [], llm_configuration_id: null });
    expect((await admin.api.delete(`/api/v2/corpora/${doomed.id}`)).status).toBe(200);
    await t.app.database.db.deleteFrom('llm_configurations').where('id', '=', llmId).execute();

    const reply = await admin.api.put(`/api/v2/agents/${agent.id}/history`, { history_id: first });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body.data).sort()).toEqual(['checkpoint_name', 'created_by', 'created_on', 'history_id']);
    expect(reply.body.message).toContain(`corpus ${doomed.id}`);
    expect(reply.body.message).toContain(`LLM configuration ${llmId}`);
    const now = (await admin.api.get(`/api/v2/agents/${agent.id}`)).body.data;
    expect(now).toMatchObject({ instructions: 'Old instructions', corpus_ids: [kept.id], llm_configuration_id: null });
  });

  it('records written before these fields existed still restore, leaving the corpora as they are', async () => {
    const corpus = await createCorpus(admin);
    const agent = await createAgent(admin, { instructions: 'Current', corpus_ids: [corpus.id], retrieval: { passages: 7 } });
    const at = now();
    const legacySnapshot = { name: agent.name, description: '', instructions: 'From before', model_name: null, temperature: 0.3, max_tokens: 512, conversation_starters: [], alias: null, status: 'draft' };
    const { id: legacyId } = await t.app.database.db
      .insertInto('agent_history')
      .values({ organization_id: admin.organizationId, agent_id: agent.id, version: 1, kind: 'checkpoint', checkpoint_name: 'Before', snapshot: JSON.stringify(legacySnapshot), created_on: at, created_by: admin.id })
      .returning('id')
      .executeTakeFirstOrThrow();

    const record = (await admin.api.get(`/api/v2/agents/${agent.id}/history/${legacyId}`)).body.data;
    expect(record.differences.map((d: { field: string }) => d.field)).not.toContain('corpus_ids');
    expect((await admin.api.put(`/api/v2/agents/${agent.id}/history`, { history_id: legacyId })).status).toBe(200);
    const restored = (await admin.api.get(`/api/v2/agents/${agent.id}`)).body.data;
    expect(restored).toMatchObject({ instructions: 'From before', temperature: 0.3, corpus_ids: [corpus.id], llm_configuration_id: null, retrieval: { passages: 5, min_score: 0 } });
  });

  it('concurrent connections of one agent from the corpus side all count', async () => {
    const corpora = await Promise.all([1, 2, 3, 4].map(() => createCorpus(admin)));
    const agent = await createAgent(admin);
    const replies = await Promise.all(corpora.map((corpus) => admin.api.post(`/api/v2/corpora/${corpus.id}/agents`, { agent_id: agent.id })));
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200]);
    const after = (await admin.api.get(`/api/v2/agents/${agent.id}`)).body.data;
    expect(after.corpus_ids).toEqual(corpora.map((corpus) => corpus.id).sort((x, y) => x - y));
    expect(after.version).toBe(agent.version + 4);
  });
});

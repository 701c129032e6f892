// Setup of the ask suite: the fake model in its own process, the real server allowed to reach it,
// two LLM configurations (the instant ten-word reply and a model streaming at a model's pace), a
// corpus of 200 documents seeded into the SQLite file, the agents that answer with them, and the bare
// Fastify route forwarding asks to the same ten-word model (bench/bare-forward.ts).
import type { ApiClient } from './lib/api-client.js';
import { startAgentPlatform, type AgentPlatformServer } from './lib/agent-platform-server.js';
import { createCorpus } from './lib/corpus-setup.js';
import { apiKeyClient } from './lib/credentials.js';
import { startBareServer } from './lib/bare-server-process.js';
import type { ChildServer } from './lib/child-server.js';
import { startFakeModel, type FakeModel } from './lib/fake-model-process.js';
import { TEN_WORD_MODEL } from './lib/fake-model-server.js';
import type { SuiteContext } from './lib/suite.js';
import type { ZipfVocabulary } from './lib/text-corpus.js';
import { restartWithCorpus } from './lib/zipf-corpus.js';

/**
 * The fake's model writing one piece every 20 ms (about 50 tokens a second, a common pace of hosted
 * models), an answer of about 200 pieces: some 4 seconds of streaming, as a user reads it.
 */
export const PACED_MODEL = 'paced-20x5';

/** The agents' corpus: the first 200 documents of the search suite's (10 chunks each), as in the speed aims' table. */
export const ASK_CORPUS_DOCUMENTS = 200;

export interface AskAgents {
  /** The instant ten-word reply, no corpus. */
  instant: number;
  /** The instant ten-word reply, the 200-document corpus. */
  instantWithCorpus: number;
  /** Paced model, no corpus. */
  paced: number;
  /** Paced model, the 200-document corpus. */
  pacedWithCorpus: number;
}

export interface AskSetup {
  fake: FakeModel;
  platform: AgentPlatformServer;
  client: ApiClient;
  agents: AskAgents;
  /** Bare Fastify, asks forwarded to the ten-word model: the floor of an answer. */
  bare: ChildServer;
  corpusId: number;
  seedSeconds: number;
}

const INSTRUCTIONS =
  'You are the support assistant of a company selling accounting software to small businesses. Answer in the ' +
  'language of the question, in short paragraphs, and cite the passages you used with their numbers in brackets.';

async function createConfiguration(client: ApiClient, organizationId: number, fake: FakeModel, model: string): Promise<number> {
  const configuration = await client.call<{ id: number }>(
    'POST',
    `/api/v2/organizations/${organizationId}/llm-configurations`,
    {
      name: `Benchmark ${model}`,
      provider: 'openai_compatible',
      model,
      base_url: fake.baseUrl,
      input_price_per_million: 0.15,
      output_price_per_million: 0.6,
      context_window: 128_000,
      is_default: false,
    },
    201,
  );
  return configuration.id;
}

function createAgent(client: ApiClient, name: string, llmConfigurationId: number, corpusIds: number[]): Promise<{ id: number }> {
  return client.call<{ id: number }>(
    'POST',
    '/api/v2/agents',
    { name, instructions: INSTRUCTIONS, temperature: 0.2, max_tokens: 512, llm_configuration_id: llmConfigurationId, corpus_ids: corpusIds },
    201,
  );
}

export async function setUpAsking(vocabulary: ZipfVocabulary, context: SuiteContext): Promise<AskSetup> {
  const { config, cleanup, log } = context;
  log('starting the fake model server (own process)');
  const fake = await startFakeModel(cleanup);
  log('starting the Agent Platform server, allowed to reach the fake model');
  const first = await startAgentPlatform(config, cleanup, { EGRESS_ALLOWED_HOSTS: fake.host });
  const firstClient = await apiKeyClient(first);
  const me = await firstClient.call<{ organization_id: number }>('GET', '/api/v2/users/me');
  const instantConfiguration = await createConfiguration(firstClient, me.organization_id, fake, TEN_WORD_MODEL);
  const pacedConfiguration = await createConfiguration(firstClient, me.organization_id, fake, PACED_MODEL);
  const corpus = await createCorpus(firstClient, 'Ask benchmark help centre');
  const agents: AskAgents = {
    instant: (await createAgent(firstClient, 'Instant, no corpus', instantConfiguration, [])).id,
    instantWithCorpus: (await createAgent(firstClient, 'Instant, help centre', instantConfiguration, [corpus.id])).id,
    paced: (await createAgent(firstClient, 'Paced, no corpus', pacedConfiguration, [])).id,
    pacedWithCorpus: (await createAgent(firstClient, 'Paced, help centre', pacedConfiguration, [corpus.id])).id,
  };
  const { platform, seedSeconds } = await restartWithCorpus(first, corpus.id, vocabulary, context, ASK_CORPUS_DOCUMENTS);
  // The API key lives in the database: the client of the first server is valid on the new one.
  const client = firstClient.at(platform.server.baseUrl);
  log('starting the bare Fastify route forwarding asks to the same model');
  const bare = await startBareServer({ route: '/health', samplePath: '/health', body: '{"ok":true}', forwardTo: { baseUrl: fake.baseUrl, model: TEN_WORD_MODEL } }, cleanup);
  return { fake, platform, client, agents, bare, corpusId: corpus.id, seedSeconds };
}

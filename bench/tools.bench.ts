// The tools suite: what the tool loop adds to each step of an answer. Two agents answer with the fake
// model on loopback: one without tools, one whose model (`tools-3`) calls an API tool three times
// before answering; the tool calls the fake's small JSON API over loopback. One ask at a time, each
// answered whole. The loop's overhead per step is what the tool agent's answer takes beyond the plain
// one, less the three extra model calls and the three API calls as the bench itself times them
// straight to the fake: checking the arguments, running the tool through the egress client, guarding
// and recording the results, and building the next request. See docs/performance.md, suite `tools`.
import type { Agent } from 'node:http';
import { startAgentPlatform } from './lib/agent-platform-server.js';
import type { ApiClient } from './lib/api-client.js';
import type { BenchConfig } from './lib/bench-config.js';
import { apiKeyClient } from './lib/credentials.js';
import { startFakeModel, type FakeModel } from './lib/fake-model-process.js';
import { singleConnectionAgent, timedRequest } from './lib/http-timing.js';
import { percentile } from './lib/percentiles.js';
import { processCpuSeconds } from './lib/process-cpu.js';
import { fixed, type SuiteReport } from './lib/report.js';
import type { BenchSuite, SuiteContext } from './lib/suite.js';

const STEPS = 3;
const WARM_UP_ASKS = 30;
const MEASURED_ASKS = 200;
const STEP_OVERHEAD_AIM_MS = 3;

const median = (values: number[]) => percentile(Float64Array.from(values).sort(), 50);

interface Setup {
  fake: FakeModel;
  /** The server's process, whose CPU time is read around each series of asks. */
  serverPid: number;
  client: ApiClient;
  baseUrl: string;
  plainAgent: number;
  toolAgent: number;
}

async function setUp(context: SuiteContext): Promise<Setup> {
  const { config, cleanup, log } = context;
  log('starting the fake model server (own process) and the Agent Platform server');
  const fake = await startFakeModel(cleanup);
  const platform = await startAgentPlatform(config, cleanup, { EGRESS_ALLOWED_HOSTS: fake.host });
  const client = await apiKeyClient(platform);
  const me = await client.call<{ organization_id: number }>('GET', '/api/v2/users/me');
  await client.call('PUT', '/api/v2/feature-flags/api-tools', { enabled: true });
  const configuration = (model: string) =>
    client.call<{ id: number }>('POST', `/api/v2/organizations/${me.organization_id}/llm-configurations`, { name: `Bench ${model}`, provider: 'openai_compatible', model, base_url: fake.baseUrl, input_price_per_million: 0.15, output_price_per_million: 0.6 }, 201);
  const tool = await client.call<{ id: number }>(
    'POST',
    `/api/v2/organizations/${me.organization_id}/tools/api`,
    {
      name: 'weather',
      description: 'The weather forecast of a city',
      config: {
        method: 'GET',
        url: `http://${fake.host}/bench/weather/{city}`,
        parameters: { type: 'object', properties: { city: { type: 'string', description: 'The city' } }, required: ['city'] },
      },
    },
    201,
  );
  const agent = (name: string, llmConfigurationId: number, toolIds: number[]) =>
    client.call<{ id: number }>('POST', '/api/v2/agents', { name, instructions: 'Answer briefly.', llm_configuration_id: llmConfigurationId, tool_ids: toolIds }, 201);
  const plainAgent = (await agent('No tools', (await configuration('instant')).id, [])).id;
  const toolAgent = (await agent('Weather tool', (await configuration(`tools-${STEPS}`)).id, [tool.id])).id;
  return { fake, serverPid: platform.server.pid, client, baseUrl: platform.server.baseUrl, plainAgent, toolAgent };
}

interface Samples {
  plain: number[];
  withTools: number[];
  modelCall: number[];
  apiCall: number[];
  /** Server CPU seconds spent on the asks without tools, and on those with. */
  plainCpu: number;
  toolsCpu: number;
}

const noSamples = (): Samples => ({ plain: [], withTools: [], modelCall: [], apiCall: [], plainCpu: 0, toolsCpu: 0 });

async function askOnce(setup: Setup, connection: Agent, agentId: number, query: string, calls: number): Promise<number> {
  const headers = { ...setup.client.authorizationHeaders(), 'content-type': 'application/json' };
  const reply = await timedRequest(`${setup.baseUrl}/api/v2/agents/${agentId}/responses`, { method: 'POST', headers, body: JSON.stringify({ query }), agent: connection, keepBody: true });
  const body = reply.body?.toString('utf8') ?? '';
  if (reply.status !== 201) throw new Error(`the ask answered ${reply.status}: ${body.slice(0, 300)}`);
  const data = (JSON.parse(body) as { data: { status: string; tool_calls: { status: string }[] } }).data;
  if (data.status !== 'completed' || data.tool_calls.length !== calls || data.tool_calls.some((call) => call.status !== 'ok')) {
    throw new Error(`unexpected answer: ${body.slice(0, 400)}`);
  }
  return reply.ms;
}

async function measure(setup: Setup, asks: number, into: Samples): Promise<void> {
  const connections = { platform: singleConnectionAgent(), model: singleConnectionAgent(), control: singleConnectionAgent() };
  const cpu = () => processCpuSeconds(setup.serverPid) ?? Number.NaN;
  try {
    // Each agent's asks in a series of their own, so that the server's CPU time can be read around them.
    let before = cpu();
    for (let i = 0; i < asks; i++) into.plain.push(await askOnce(setup, connections.platform, setup.plainAgent, `What is the weather like today? (${i})`, 0));
    into.plainCpu += cpu() - before;
    before = cpu();
    for (let i = 0; i < asks; i++) into.withTools.push(await askOnce(setup, connections.platform, setup.toolAgent, `What is the weather like today? (${i})`, STEPS));
    into.toolsCpu += cpu() - before;
    for (let i = 0; i < asks; i++) {
      // The tool agent's last model request (three tool results in it), sent straight to the fake: one model step.
      const last = await timedRequest(`http://${setup.fake.host}/bench/last-request`, { agent: connections.control, keepBody: true });
      const step = await timedRequest(`${setup.fake.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: last.body!, agent: connections.model });
      into.modelCall.push(step.ms);
      const api = await timedRequest(`http://${setup.fake.host}/bench/weather/City%201`, { agent: connections.model });
      into.apiCall.push(api.ms);
    }
  } finally {
    for (const connection of Object.values(connections)) connection.destroy();
  }
}

export const toolsSuite: BenchSuite = {
  name: 'tools',
  description: `the tool loop's overhead per step: an answer with ${STEPS} API tool calls against one without, over the fake model and a loopback API`,
  timeBudgetSeconds: (_config: BenchConfig) => 600,
  async run(context: SuiteContext): Promise<SuiteReport> {
    const setup = await setUp(context);
    context.log(`warming up (${WARM_UP_ASKS} asks of each agent)`);
    await measure(setup, WARM_UP_ASKS, noSamples());
    context.log(`measuring (${MEASURED_ASKS} asks of each agent)`);
    const samples = noSamples();
    await measure(setup, MEASURED_ASKS, samples);

    const plain = median(samples.plain);
    const withTools = median(samples.withTools);
    const modelCall = median(samples.modelCall);
    const apiCall = median(samples.apiCall);
    const perStep = (withTools - plain - STEPS * (modelCall + apiCall)) / STEPS;
    // The server's own work for a step, whatever the machine's load: its CPU time, tool asks less plain ones.
    const cpuPerStepMs = ((samples.toolsCpu - samples.plainCpu) / MEASURED_ASKS / STEPS) * 1000;
    return {
      title: `Tool loop: ${MEASURED_ASKS} asks of each agent, one at a time, answered whole`,
      results: [],
      tables: [
        {
          header: ['measure', 'median ms', 'p95 ms'],
          rows: [
            ['ask, no tools', fixed(plain, 2), fixed(percentile(Float64Array.from(samples.plain).sort(), 95), 2)],
            [`ask, ${STEPS} tool calls`, fixed(withTools, 2), fixed(percentile(Float64Array.from(samples.withTools).sort(), 95), 2)],
            ['one model step straight to the fake', fixed(modelCall, 2), fixed(percentile(Float64Array.from(samples.modelCall).sort(), 95), 2)],
            ['one API call straight to the fake', fixed(apiCall, 2), fixed(percentile(Float64Array.from(samples.apiCall).sort(), 95), 2)],
          ],
        },
        {
          header: ['server CPU', 'ms per ask'],
          rows: [
            ['ask, no tools', fixed((samples.plainCpu / MEASURED_ASKS) * 1000, 2)],
            [`ask, ${STEPS} tool calls`, fixed((samples.toolsCpu / MEASURED_ASKS) * 1000, 2)],
          ],
        },
      ],
      aims: [
        { label: 'tool loop overhead per step (median wall time)', value: perStep, comparison: '<', target: STEP_OVERHEAD_AIM_MS, unit: ' ms' },
        { label: 'tool loop server CPU per step', value: cpuPerStepMs, comparison: '<', target: STEP_OVERHEAD_AIM_MS, unit: ' ms' },
      ],
      notes: [
        `overhead per step = (ask with ${STEPS} calls − ask without − ${STEPS} × (model step + API call)) / ${STEPS}, medians`,
        `server CPU per step = (CPU of the asks with tools − CPU of those without) / asks / ${STEPS}: the platform's own work (model client, tool request, checks, records), stable under load`,
        'the tool agent makes its model calls to the same fake through the same egress client as the plain one',
      ],
    };
  },
};

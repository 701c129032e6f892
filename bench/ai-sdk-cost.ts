// What reading a model through the AI SDK costs, against a bare request to the same fake model: in
// one process, one call after another, the CPU time and the wall time of a call read to its end,
// layer by layer: a bare node:http request (the floor), the server's egress client alone, the
// provider's model as the server calls it (SdkChatModel: the AI SDK's doStream behind the egress
// fetch), and collectStream over it, which is how an ask reads its model; then an answer sent whole, a
// bare request without `stream` and SdkChatModel asked whole (doGenerate). Two answers: `instant`
// (43 pieces in one write) and `paced-0x5` (215 pieces, each written on its own). The fake runs in a
// child process of its own (bench/lib/fake-model-server.ts). docs/performance-history.md, "Round 3".
//
//   node --import tsx bench/ai-sdk-cost.ts        (AI_SDK_COST_CALLS: calls measured a layer, 300)
import { request as httpRequest, Agent } from 'node:http';
import { createEgressClient } from '../src/net/egress.js';
import { collectStream } from '../src/providers/chat/collect-stream.js';
import { createChatModel } from '../src/providers/chat/create-chat-model.js';
import type { ChatModel, ChatRequest } from '../src/providers/chat/chat-model.js';
import { CleanupStack } from './lib/cleanup.js';
import { startFakeModel, type FakeModel } from './lib/fake-model-process.js';
import { loadAverage1m } from './lib/machine.js';
import { percentile } from './lib/percentiles.js';

const CALLS = Number(process.env.AI_SDK_COST_CALLS ?? 300);
const WARM_UP = 50;
const MESSAGES = [
  { role: 'system' as const, content: 'You are the support assistant of a company selling accounting software. Cite passages with their numbers.' },
  { role: 'user' as const, content: 'How do I send an invoice to a customer?' },
];

type Call = () => Promise<void>;

/** The same chat request the provider package sends, straight to the fake over one kept-alive connection, read to its end. */
function bareCall(fake: FakeModel, model: string, streamed = true): Call {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(`${fake.baseUrl}/chat/completions`);
  const body = JSON.stringify({ model, messages: MESSAGES, temperature: 0.2, max_tokens: 512, ...(streamed ? { stream: true, stream_options: { include_usage: true } } : {}) });
  return () =>
    new Promise<void>((resolve, reject) => {
      const outgoing = httpRequest(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
        response.on('data', () => undefined);
        response.on('end', resolve);
        response.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
}

function egressCall(fake: FakeModel, model: string): Call {
  const egress = createEgressClient({ allowedHosts: [fake.host] });
  const body = JSON.stringify({ model, messages: MESSAGES, temperature: 0.2, max_tokens: 512, stream: true, stream_options: { include_usage: true } });
  return async () => {
    const answer = await egress.stream(`${fake.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    for await (const piece of answer.body) void piece;
  };
}

function modelOf(fake: FakeModel, model: string): ChatModel {
  return createChatModel({ provider: 'openai_compatible', model, baseUrl: fake.baseUrl, apiVersion: null, apiKey: null, timeoutMs: 30_000, maxRetries: 0 }, createEgressClient({ allowedHosts: [fake.host] }));
}

const chatRequest = (streamed = true): ChatRequest => ({ messages: MESSAGES, temperature: 0.2, maxTokens: 512, signal: new AbortController().signal, streamed });

function sdkCall(fake: FakeModel, model: string, streamed = true): Call {
  const chat = modelOf(fake, model);
  return async () => {
    for await (const event of chat.stream(chatRequest(streamed))) void event;
  };
}

function collectCall(fake: FakeModel, model: string): Call {
  const chat = modelOf(fake, model);
  return async () => {
    const { signal, ...request } = chatRequest();
    const collected = await collectStream(chat, { request, signals: [signal], timeoutMs: 30_000, onText: () => undefined });
    if (collected.failure !== undefined) throw collected.failure.thrown as Error;
  };
}

async function measure(call: Call): Promise<{ cpuMs: number; wallP50: number }> {
  for (let i = 0; i < WARM_UP; i++) await call();
  const walls = new Float64Array(CALLS);
  const cpu = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await call();
    walls[i] = performance.now() - started;
  }
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000 / CALLS, wallP50: percentile(walls.sort(), 50) };
}

async function main() {
  const cleanup = new CleanupStack();
  try {
    const fake = await startFakeModel(cleanup);
    console.log(`load average (1 min) at start: ${loadAverage1m().toFixed(2)}; ${CALLS} calls a layer after ${WARM_UP} unmeasured`);
    console.log('| answer | layer | CPU ms a call | × bare | wall p50 ms |');
    console.log('|---|---|---:|---:|---:|');
    for (const model of ['instant', 'paced-0x5']) {
      const layers: [string, Call][] = [
        ['bare node:http request', bareCall(fake, model)],
        ['egress client alone', egressCall(fake, model)],
        ['SdkChatModel.stream (AI SDK doStream)', sdkCall(fake, model)],
        ['collectStream over it (as an ask reads)', collectCall(fake, model)],
        // An answer sent whole: asked for whole, against the same request whole.
        ['bare node:http request, whole', bareCall(fake, model, false)],
        ['SdkChatModel.stream whole (AI SDK doGenerate)', sdkCall(fake, model, false)],
      ];
      let bare = 0;
      for (const [label, call] of layers) {
        const { cpuMs, wallP50 } = await measure(call);
        if (bare === 0) bare = cpuMs;
        console.log(`| ${model} | ${label} | ${cpuMs.toFixed(3)} | ${(cpuMs / bare).toFixed(1)} | ${wallP50.toFixed(2)} |`);
      }
    }
    console.log(`load average (1 min) at the end: ${loadAverage1m().toFixed(2)}`);
  } finally {
    await cleanup.runAll();
  }
}

await main();

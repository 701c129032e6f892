// What Flowise adds to the model's own time, measured as the ask suite measures ours
// (bench/ask-overhead.ts): for each question a prediction answered as JSON, then the very chat
// request Flowise made for it (read back from the fake) sent straight to the fake; then the same
// question streamed, and its request straight to the fake again. One kept-alive connection to each
// server, the same client and loopback on both sides. Then answers a second with a few clients at
// once (autocannon, bench/lib/load.ts), with Flowise's CPU time per answer.
import type { Agent } from 'node:http';
import type { FakeModel } from '../../lib/fake-model-process.js';
import { singleConnectionAgent, timedRequest } from '../../lib/http-timing.js';
import { assertMostlySuccessful, measureLoad, type LoadResult, type LoadSettings } from '../../lib/load.js';
import { percentile } from '../../lib/percentiles.js';
import { isCompletionText, timedEventStream, type SseEvent } from '../../lib/sse-timing.js';
import { HELP_CENTRE_QUESTIONS } from '../../lib/help-centre-questions.js';


/** A word of the fake's answer, to tell an answer of the model from an error message. */
const ANSWER_MARK = 'invoice';

export interface OverheadSamples {
  /** Prediction answered as JSON, to the last byte; the model straight, to its last byte. */
  flowiseWhole: number[];
  modelWhole: number[];
  /** Streamed prediction, to the first byte of the body, and to the first `token` event with text. */
  flowiseFirstByte: number[];
  modelFirstByte: number[];
  flowiseFirstText: number[];
  modelFirstText: number[];
  asks: number;
}

interface Connections {
  flowise: Agent;
  model: Agent;
  control: Agent;
}

/** Flowise's events are `message:` lines followed by `data:{"event":"token","data":"…"}`. */
export function isFlowiseToken(event: SseEvent): boolean {
  if (event.data === '') return false;
  const parsed = JSON.parse(event.data) as { event?: string; data?: unknown };
  return parsed.event === 'token' && typeof parsed.data === 'string' && parsed.data !== '';
}

const flowiseEventNames = (events: SseEvent[]) => events.map((event) => (event.data === '' ? '' : ((JSON.parse(event.data) as { event?: string }).event ?? '')));

const text = (body: Buffer | undefined) => body?.toString('utf8') ?? '';

function failIf(condition: boolean, message: () => string): void {
  if (condition) throw new Error(message());
}

async function straightToModel(fake: FakeModel, connections: Connections) {
  const last = await timedRequest(`${fake.server.baseUrl}/bench/last-request`, { agent: connections.control, keepBody: true });
  return timedEventStream(`${fake.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: text(last.body),
    agent: connections.model,
    isContent: isCompletionText,
  });
}

async function measureQuestion(predictionUrl: string, fake: FakeModel, connections: Connections, question: string, into: OverheadSamples): Promise<void> {
  const headers = { 'content-type': 'application/json' };
  const whole = await timedRequest(predictionUrl, { method: 'POST', headers, body: JSON.stringify({ question }), agent: connections.flowise, keepBody: true });
  failIf(whole.status !== 200, () => `the prediction answered ${whole.status}: ${text(whole.body).slice(0, 300)}`);
  const answer = JSON.parse(text(whole.body)) as { text?: unknown };
  failIf(typeof answer.text !== 'string' || !answer.text.includes(ANSWER_MARK), () => `the prediction's answer is not the model's: ${text(whole.body).slice(0, 300)}`);
  const modelWhole = await straightToModel(fake, connections);
  failIf(modelWhole.status !== 200, () => `the fake answered ${modelWhole.status}`);

  const streamed = await timedEventStream(predictionUrl, { method: 'POST', headers, body: JSON.stringify({ question, streaming: true }), agent: connections.flowise, isContent: isFlowiseToken });
  const names = flowiseEventNames(streamed.events);
  failIf(streamed.status !== 200 || !names.includes('end') || Number.isNaN(streamed.firstContentMs), () => `the streamed prediction answered ${streamed.status}, events ${names.join(', ')}: ${JSON.stringify(streamed.events.at(-1))}`);
  const modelStreamed = await straightToModel(fake, connections);

  into.flowiseWhole.push(whole.ms);
  into.modelWhole.push(modelWhole.ms);
  into.flowiseFirstByte.push(streamed.firstBodyByteMs);
  into.modelFirstByte.push(modelStreamed.firstBodyByteMs);
  into.flowiseFirstText.push(streamed.firstContentMs);
  into.modelFirstText.push(modelStreamed.firstContentMs);
  into.asks++;
}

const emptySamples = (): OverheadSamples => ({ flowiseWhole: [], modelWhole: [], flowiseFirstByte: [], modelFirstByte: [], flowiseFirstText: [], modelFirstText: [], asks: 0 });

/** Warm-up questions (dropped), then the measured ones, one after another. */
export async function measureOverhead(predictionUrl: string, fake: FakeModel, warmUp: number, measured: number): Promise<OverheadSamples> {
  const connections: Connections = { flowise: singleConnectionAgent(), model: singleConnectionAgent(), control: singleConnectionAgent() };
  const question = (index: number) => HELP_CENTRE_QUESTIONS[index % HELP_CENTRE_QUESTIONS.length]!;
  try {
    for (let index = 0; index < warmUp; index++) await measureQuestion(predictionUrl, fake, connections, question(index), emptySamples());
    const samples = emptySamples();
    for (let index = 0; index < measured; index++) await measureQuestion(predictionUrl, fake, connections, question(index + 3), samples);
    return samples;
  } finally {
    for (const agent of Object.values(connections)) agent.destroy();
  }
}

/** Non-streamed predictions from `settings.connections` clients at once, each asking again as soon as answered. */
export async function measureAnswersPerSecond(predictionUrl: string, serverPid: number, settings: LoadSettings): Promise<LoadResult> {
  const result = await measureLoad(
    {
      name: `POST /api/v1/prediction/{id}, ${settings.connections} clients`,
      url: predictionUrl,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      bodies: HELP_CENTRE_QUESTIONS.map((question) => JSON.stringify({ question })),
      serverPid,
    },
    settings,
  );
  assertMostlySuccessful(result);
  return result;
}

export const median = (values: number[]) => percentile(Float64Array.from(values).sort(), 50);
export const p95 = (values: number[]) => percentile(Float64Array.from(values).sort(), 95);

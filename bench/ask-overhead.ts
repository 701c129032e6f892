// What asking adds to the model's own time, one ask at a time. For each question: an ask answered
// as JSON, then the very chat request the server made for it (read back from the fake) sent straight
// to the fake; then the same question streamed, and its request straight to the fake again. Both
// sides use the same client (node:http, one kept-alive connection to each server) and the same
// loopback, so the difference is the platform: routing, authentication, the agent's reads,
// retrieval, the prompt, recording the question and the answer, and the extra hop. Asked for, the same
// two asks (whole and streamed) go to the bare Fastify route forwarding to the same model, the floor
// any server forwarding asks pays (bench/bare-forward.ts).
import type { Agent } from 'node:http';
import type { AskSetup } from './ask-setup.js';
import { singleConnectionAgent, timedRequest } from './lib/http-timing.js';
import { percentile } from './lib/percentiles.js';
import { isAskDelta, isCompletionText, timedEventStream, type SseEvent } from './lib/sse-timing.js';

export interface OverheadSamples {
  /** Non-streamed ask, to the last byte of the JSON answer. */
  askWhole: number[];
  /** The server's request straight to the fake, to the last byte. */
  modelWhole: number[];
  /** Streamed ask, to the first byte of the body (the response.created event). */
  askFirstByte: number[];
  modelFirstByte: number[];
  /** Streamed ask, to the first delta event; the fake, to its first chunk with text. */
  askFirstText: number[];
  modelFirstText: number[];
  /** The bare forwarding route, whole to the last byte and streamed to the first delta, when asked for. */
  bareWhole: number[];
  bareFirstText: number[];
  /** POST …/search of the same query over the agent's corpus (5 passages), when asked for: retrieval alone. */
  searchAlone: number[];
  /** What the server recorded: latency_ms of the whole answers, first_token_ms of the streamed ones (whole milliseconds). */
  serverLatency: number[];
  serverFirstToken: number[];
  /** Asks whose answer kept the fake's [1] marker: the prompt held at least one passage. */
  withPassages: number;
  asks: number;
}

interface Connections {
  platform: Agent;
  model: Agent;
  control: Agent;
  bare: Agent;
}

export interface OverheadOptions {
  /** The agent's corpus: its search alone is timed too (retrieval alone). */
  corpusId?: number;
  /** Time the bare forwarding route as well. */
  withBare?: boolean;
}

function failIf(condition: boolean, message: () => string): void {
  if (condition) throw new Error(message());
}

const text = (body: Buffer | undefined) => body?.toString('utf8') ?? '';

async function lastModelRequest(setup: AskSetup, connections: Connections): Promise<string> {
  const response = await timedRequest(`${setup.fake.server.baseUrl}/bench/last-request`, { agent: connections.control, keepBody: true });
  return text(response.body);
}

function straightToModel(setup: AskSetup, connections: Connections, body: string) {
  return timedEventStream(`${setup.fake.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    agent: connections.model,
    isContent: isCompletionText,
  });
}

interface AnswerFigures {
  status: string;
  citations: unknown[];
  latency_ms: number;
  first_token_ms: number;
}

function completedOf(events: SseEvent[]): AnswerFigures | undefined {
  const last = events.at(-1);
  return last?.event === 'response.completed' ? (JSON.parse(last.data) as AnswerFigures) : undefined;
}

/** One question, the four timed requests (five with the search alone); throws on any answer that is not a completed one. */
async function measureBare(setup: AskSetup, connections: Connections, query: string, into: OverheadSamples): Promise<void> {
  const url = `${setup.bare.baseUrl}/api/v2/agents/1/responses`;
  const headers = { 'content-type': 'application/json' };
  const whole = await timedRequest(url, { method: 'POST', headers, body: JSON.stringify({ query }), agent: connections.bare });
  failIf(whole.status !== 201, () => `the bare route answered ${whole.status}`);
  const streamed = await timedEventStream(url, { method: 'POST', headers, body: JSON.stringify({ query, stream: true }), agent: connections.bare, isContent: isAskDelta });
  failIf(completedOf(streamed.events)?.status !== 'completed', () => `the bare route's stream ended with ${JSON.stringify(streamed.events.at(-1))}`);
  into.bareWhole.push(whole.ms);
  into.bareFirstText.push(streamed.firstContentMs);
}

async function measureQuestion(setup: AskSetup, connections: Connections, agentId: number, query: string, into: OverheadSamples, options: OverheadOptions): Promise<void> {
  const { corpusId } = options;
  const url = `${setup.platform.server.baseUrl}/api/v2/agents/${agentId}/responses`;
  const headers = { ...setup.client.authorizationHeaders(), 'content-type': 'application/json' };
  if (corpusId !== undefined) {
    const search = await timedRequest(`${setup.platform.server.baseUrl}/api/v2/corpora/${corpusId}/search`, { method: 'POST', headers, body: JSON.stringify({ query, limit: 5 }), agent: connections.platform });
    failIf(search.status !== 200, () => `the search answered ${search.status}`);
    into.searchAlone.push(search.ms);
  }

  const whole = await timedRequest(url, { method: 'POST', headers, body: JSON.stringify({ query }), agent: connections.platform, keepBody: true });
  failIf(whole.status !== 201, () => `the ask answered ${whole.status}: ${text(whole.body).slice(0, 300)}`);
  const answer = (JSON.parse(text(whole.body)) as { data: AnswerFigures }).data;
  failIf(answer.status !== 'completed', () => `the ask's answer is ${answer.status}: ${text(whole.body).slice(0, 300)}`);
  const modelWhole = await straightToModel(setup, connections, await lastModelRequest(setup, connections));
  failIf(modelWhole.status !== 200, () => `the fake answered ${modelWhole.status}`);

  const streamed = await timedEventStream(url, { method: 'POST', headers, body: JSON.stringify({ query, stream: true }), agent: connections.platform, isContent: isAskDelta });
  const completed = completedOf(streamed.events);
  failIf(streamed.status !== 200 || completed?.status !== 'completed', () => `the streamed ask answered ${streamed.status}, last event ${JSON.stringify(streamed.events.at(-1))}`);
  const modelStreamed = await straightToModel(setup, connections, await lastModelRequest(setup, connections));

  into.askWhole.push(whole.ms);
  into.modelWhole.push(modelWhole.ms);
  into.askFirstByte.push(streamed.firstBodyByteMs);
  into.modelFirstByte.push(modelStreamed.firstBodyByteMs);
  into.askFirstText.push(streamed.firstContentMs);
  into.modelFirstText.push(modelStreamed.firstContentMs);
  into.serverLatency.push(answer.latency_ms);
  into.serverFirstToken.push(completed!.first_token_ms);
  into.asks++;
  if (answer.citations.length > 0) into.withPassages++;
  if (options.withBare) await measureBare(setup, connections, query, into);
}

const emptySamples = (): OverheadSamples => ({
  askWhole: [],
  modelWhole: [],
  bareWhole: [],
  bareFirstText: [],
  searchAlone: [],
  askFirstByte: [],
  modelFirstByte: [],
  askFirstText: [],
  modelFirstText: [],
  serverLatency: [],
  serverFirstToken: [],
  withPassages: 0,
  asks: 0,
});

/** Warm-up questions (dropped), then the measured ones, one after another; with a corpus, its search alone too. */
export async function measureOverhead(setup: AskSetup, agentId: number, warmUp: string[], queries: string[], options: OverheadOptions = {}): Promise<OverheadSamples> {
  const connections: Connections = { platform: singleConnectionAgent(), model: singleConnectionAgent(), control: singleConnectionAgent(), bare: singleConnectionAgent() };
  try {
    for (const query of warmUp) await measureQuestion(setup, connections, agentId, query, emptySamples(), options);
    const samples = emptySamples();
    for (const query of queries) await measureQuestion(setup, connections, agentId, query, samples, options);
    return samples;
  } finally {
    for (const agent of Object.values(connections)) agent.destroy();
  }
}

export const median = (values: number[]) => percentile(Float64Array.from(values).sort(), 50);

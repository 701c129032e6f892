// The floor of an answer: a bare Fastify route at the ask's path that sends the question to the model
// and hands its answer back, and does nothing else (no credential, no agent read, no retrieval, no
// guardrail, nothing recorded). Answered whole, it waits for the model's JSON and answers 201 with the
// text; streamed, it relays each piece of the model's stream as a `delta` event between
// `response.created` and `response.completed`, the events the real route begins and ends with. The
// model is called with the platform's own client, fetch (undici, connections kept alive).
import type { FastifyInstance } from 'fastify';

interface ForwardTo {
  /** The model's OpenAI-compatible base URL, e.g. http://127.0.0.1:<port>/v1. */
  baseUrl: string;
  model: string;
}

interface AskBody {
  query: string;
  stream?: boolean;
}

const INSTRUCTIONS = 'You are a support assistant. Answer in short paragraphs.';

function chatRequest(forward: ForwardTo, query: string, stream: boolean): RequestInit {
  const messages = [
    { role: 'system', content: INSTRUCTIONS },
    { role: 'user', content: query },
  ];
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: forward.model, messages, stream, ...(stream ? { stream_options: { include_usage: true } } : {}) }),
  };
}

/** The text pieces of an OpenAI-compatible stream, as they arrive. */
async function* streamedPieces(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const bytes of body) {
    pending += decoder.decode(bytes, { stream: true });
    let end: number;
    while ((end = pending.indexOf('\n\n')) >= 0) {
      const data = pending.slice(0, end).replace(/^data: /, '');
      pending = pending.slice(end + 2);
      if (data === '[DONE]') return;
      const content = (JSON.parse(data) as { choices?: { delta?: { content?: string | null } }[] }).choices?.[0]?.delta?.content;
      if (content) yield content;
    }
  }
}

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

export function registerAskForwarding(app: FastifyInstance, forward: ForwardTo): void {
  const url = `${forward.baseUrl}/chat/completions`;
  app.post<{ Body: AskBody }>('/api/v2/agents/:agent_id/responses', async (request, reply) => {
    const { query, stream = false } = request.body;
    if (!stream) {
      const answered = await fetch(url, chatRequest(forward, query, false));
      const completion = (await answered.json()) as { choices: { message: { content: string } }[] };
      return reply.code(201).send({ data: { status: 'completed', answer: completion.choices[0]?.message.content ?? '', citations: [] } });
    }
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    raw.write(event('response.created', { status: 'in_progress' }));
    try {
      const answered = await fetch(url, chatRequest(forward, query, true));
      let answer = '';
      for await (const text of streamedPieces(answered.body!)) {
        answer += text;
        raw.write(event('delta', { text }));
      }
      raw.end(event('response.completed', { status: 'completed', answer, first_token_ms: 0 }));
    } catch (error) {
      // The headers are sent: the failure goes into the stream, as the real route reports it.
      raw.end(event('error', { code: 'model_failed', message: error instanceof Error ? error.message : String(error) }));
    }
  });
}

// A fake OpenAI-compatible server on loopback (real node:http, port 0), so that tests run the real
// client code. It serves what OpenAI, Azure OpenAI and vLLM/Ollama-style servers serve:
//   POST …/chat/completions (any prefix: /v1/…, /openai/v1/…, /openai/deployments/<name>/…?api-version=…),
//        streamed as Server-Sent Events when `stream: true` (usage in a last chunk when
//        `stream_options.include_usage` is set and `usage` is on), or whole;
//   GET  /v1/models.
// Use:
//   const fake = await startFakeOpenAi();            // fake.baseUrl = http://127.0.0.1:<port>/v1
//   startTestApp(kind, { EGRESS_ALLOWED_HOSTS: fake.host })
//   fake.answer = 'Some text'; fake.chunks = ['So', 'me text'];  // what is answered, and how it is cut
//   fake.usage = false;                               // answers without token counts
//   fake.failNext(429, { times: 2, retryAfter: '0' }); fake.failNext(401); fake.failNext(500)
//   const stall = fake.stallNext();                   // or stallNext({ afterChunks: 2 }): headers and 2 chunks first
//   await stall.arrived; …; await stall.disconnected; // or stall.release()
//   fake.cutNext(2);                                  // the next stream drops after 2 chunks
//   fake.malformedNext();                             // the next stream carries an event that is not JSON
//   fake.toolCallNext('search', { query: 'x' });      // the next answer calls a tool
//   fake.requests / fake.chatRequests()               // { method, url, headers, body } of each request
//   await fake.close();
// FAKE_LLM_KEY is a key for tests; the fake accepts any key (script 401s with failNext).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startFakeLlmServer, type AnswerPlan, type FakeLlmServer, type FakeProtocol } from './fake-llm-core.js';

export { FAKE_LLM_KEY, type FakeLlmServer, type Stall } from './fake-llm-core.js';

const CREATED = 1_764_000_000;
const sse = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;

function chunk(plan: AnswerPlan, delta: Record<string, unknown>, finishReason: string | null = null) {
  return { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: CREATED, model: plan.model, choices: [{ index: 0, delta, finish_reason: finishReason }] };
}

function usageOf(plan: AnswerPlan) {
  return plan.usage && { prompt_tokens: plan.usage.prompt, completion_tokens: plan.usage.completion, total_tokens: plan.usage.prompt + plan.usage.completion };
}

function toolCallOf(plan: AnswerPlan) {
  return plan.toolCall && { id: `call_fake_${plan.toolCall.number}`, type: 'function', function: { name: plan.toolCall.name, arguments: JSON.stringify(plan.toolCall.arguments) } };
}

const openAiProtocol: FakeProtocol = {
  isChat: (request) => (request.url ?? '').split('?')[0]!.endsWith('/chat/completions'),
  streamOf: (body) => ({ stream: body?.stream === true, includeUsage: body?.stream_options?.include_usage === true }),
  streamEvents(plan) {
    const toolCall = toolCallOf(plan);
    const head = [sse(chunk(plan, { role: 'assistant', content: '' }))];
    const chunkEvents = toolCall ? [] : plan.chunks.map((text) => sse(chunk(plan, { content: text })));
    const tail = [
      ...(toolCall ? [sse(chunk(plan, { tool_calls: [{ index: 0, ...toolCall }] }))] : []),
      sse(chunk(plan, {}, toolCall ? 'tool_calls' : 'stop')),
      ...(plan.usage ? [sse({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: CREATED, model: plan.model, choices: [], usage: usageOf(plan) })] : []),
      'data: [DONE]\n\n',
    ];
    return { head, chunkEvents, tail };
  },
  wholeAnswer(plan) {
    const toolCall = toolCallOf(plan);
    return {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: CREATED,
      model: plan.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: toolCall ? null : plan.chunks.join(''), ...(toolCall ? { tool_calls: [toolCall] } : {}) },
          finish_reason: toolCall ? 'tool_calls' : 'stop',
        },
      ],
      ...(plan.usage ? { usage: usageOf(plan) } : {}),
    };
  },
  errorBody: (status, message) => ({ error: { message, type: status === 401 ? 'invalid_request_error' : 'api_error', code: status === 404 ? 'model_not_found' : null } }),
  answerOther(request: IncomingMessage, response: ServerResponse) {
    if (request.method !== 'GET' || !(request.url ?? '').endsWith('/models')) return false;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model', object: 'model', created: CREATED, owned_by: 'fake' }] }));
    return true;
  },
};

export function startFakeOpenAi(): Promise<FakeLlmServer> {
  return startFakeLlmServer(openAiProtocol);
}

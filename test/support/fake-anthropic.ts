// A fake Anthropic Messages API on loopback (real node:http, port 0), so that tests run the real
// client code. It serves POST /v1/messages, streamed as Anthropic's Server-Sent Events
// (message_start, content_block_start, content_block_delta…, content_block_stop, message_delta with
// the usage, message_stop) when `stream: true`, or whole; and GET /v1/models.
// Use (the same scripting as fake-openai.ts):
//   const fake = await startFakeAnthropic();        // fake.baseUrl = http://127.0.0.1:<port>/v1
//   startTestApp(kind, { EGRESS_ALLOWED_HOSTS: fake.host })
//   fake.answer / fake.chunks / fake.tokens (Anthropic always counts tokens: `usage` changes nothing here)
//   fake.failNext(401 | 429 | 500, { times, retryAfter }), fake.stallNext({ afterChunks }), fake.cutNext(k), fake.malformedNext(),
//   fake.toolCallNext(name, args), fake.requests / fake.chatRequests(), fake.close()
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startFakeLlmServer, type AnswerPlan, type FakeLlmServer, type FakeProtocol } from './fake-llm-core.js';

export { FAKE_LLM_KEY, type FakeLlmServer, type Stall } from './fake-llm-core.js';

const event = (name: string, data: Record<string, unknown>) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

// Anthropic counts every answer's tokens, so this fake always does: plan.tokens, whatever plan.usage says.
function messageOf(plan: AnswerPlan, content: unknown[], stopReason: string | null) {
  return {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: plan.model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: plan.tokens.prompt, output_tokens: plan.tokens.completion },
  };
}

const anthropicProtocol: FakeProtocol = {
  isChat: (request) => (request.url ?? '').split('?')[0]!.endsWith('/messages'),
  streamOf: (body) => ({ stream: body?.stream === true, includeUsage: true }),
  streamEvents(plan) {
    const tool = plan.toolCall;
    const head = [
      event('message_start', { message: { ...messageOf(plan, [], null), usage: { input_tokens: plan.tokens.prompt, output_tokens: 1 } } }),
      event('content_block_start', { index: 0, content_block: tool ? { type: 'tool_use', id: `toolu_fake_${tool.number}`, name: tool.name, input: {} } : { type: 'text', text: '' } }),
    ];
    const chunkEvents = tool
      ? [event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(tool.arguments) } })]
      : plan.chunks.map((text) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }));
    const tail = [
      event('content_block_stop', { index: 0 }),
      event('message_delta', { delta: { stop_reason: tool ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: plan.tokens.completion } }),
      event('message_stop', {}),
    ];
    return { head, chunkEvents, tail };
  },
  wholeAnswer(plan) {
    const tool = plan.toolCall;
    const content = tool ? [{ type: 'tool_use', id: `toolu_fake_${tool.number}`, name: tool.name, input: tool.arguments }] : [{ type: 'text', text: plan.chunks.join('') }];
    return messageOf(plan, content, tool ? 'tool_use' : 'end_turn');
  },
  errorBody: (status, message) => ({ type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message } }),
  answerOther(request: IncomingMessage, response: ServerResponse) {
    if (request.method !== 'GET' || !(request.url ?? '').endsWith('/models')) return false;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ data: [{ type: 'model', id: 'claude-fake', display_name: 'Claude (fake)', created_at: '2026-01-01T00:00:00Z' }], has_more: false }));
    return true;
  },
};

export function startFakeAnthropic(): Promise<FakeLlmServer> {
  return startFakeLlmServer(anthropicProtocol);
}

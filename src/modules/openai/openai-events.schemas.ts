// The events of a chat completion with stream: true, as the OpenAPI document describes them
// (src/http/event-streams.ts): OpenAI's own stream, data-only events, so each is named "message".
// Documentation: openai-completions.ts writes them.
import { Type } from '@sinclair/typebox';
import { StreamEvent, eventStreamResponse } from '../../http/event-streams.js';
import { ChatCompletionChunkSchema, OpenAiErrorSchema } from './openai.schemas.js';

const OpenAiChatCompletionStreamEventSchema = StreamEvent(
  'OpenAiChatCompletionStreamEvent',
  'message',
  Type.Union([ChatCompletionChunkSchema, OpenAiErrorSchema, Type.Literal('[DONE]', { description: 'The end of the stream (not JSON: the text [DONE])' })], {
    description: 'A chunk; an error when the answer failed (the stream then ends without [DONE]); or [DONE] after the last chunk',
  }),
  { id: false, description: 'One event of a chat completion’s stream; the events carry no name or id, as OpenAI’s' },
);

const chunk = { id: 'chatcmpl-12', object: 'chat.completion.chunk' as const, created: 1_795_000_000, model: 'support-bot' };

/** The 200 answer of a chat completion with stream: true. */
export const chatCompletionEventsResponse = eventStreamResponse(
  'With stream: true, Server-Sent Events of data alone: chat.completion.chunk objects (the last with finish_reason, agent_response_id and ' +
    'citations; then one with the usage when stream_options.include_usage), then [DONE]; or an error object when the model fails.',
  OpenAiChatCompletionStreamEventSchema,
  'data: {"id":"chatcmpl-12","object":"chat.completion.chunk","created":1795000000,"model":"support-bot","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null,"logprobs":null}]}\n\n' +
    'data: {"id":"chatcmpl-12","object":"chat.completion.chunk","created":1795000000,"model":"support-bot","choices":[{"index":0,"delta":{"content":"Returns are accepted within 30 days."},"finish_reason":null,"logprobs":null}]}\n\n' +
    'data: {"id":"chatcmpl-12","object":"chat.completion.chunk","created":1795000000,"model":"support-bot","choices":[{"index":0,"delta":{},"finish_reason":"stop","logprobs":null}],"agent_response_id":12,"citations":[]}\n\n' +
    'data: [DONE]\n\n',
  {
    chunk: { event: 'message', data: { ...chunk, choices: [{ index: 0, delta: { content: 'Returns are accepted within 30 days.' }, finish_reason: null, logprobs: null }] } },
    done: { event: 'message', data: '[DONE]' },
    error: { event: 'message', data: { error: { message: 'The model did not answer in time', type: 'api_error', code: 'upstream_timeout', param: null } } },
  },
);

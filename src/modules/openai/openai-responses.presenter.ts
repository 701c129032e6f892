// An answer as OpenAI's response object (the Responses API): resp_{id} names the agent response it
// was recorded as. The text is one message item with one output_text part, whose annotations are the
// passages cited (file_citation, the document as file_id, where its first marker [n] stands as index);
// calls of the client's tools follow as function_call items. A guardrail's block or a cut answer is
// incomplete, with the reason OpenAI gives for each.
import { asRecorded, type Answer } from '../runtime/answer.js';
import { argumentsText } from './openai-client-tools.js';
import { unixSeconds } from './openai-models.js';
import { clientCallsOf } from './openai.presenter.js';
import type { FunctionCallOutputItem, MessageOutputItem, OutputTextPart, ResponseObject } from './openai-responses.schemas.js';

/** What the response object echoes of the request, as OpenAI's does. */
export interface ResponseEcho {
  /** The model as the client named it. */
  model: string;
  previousResponseId: string | null;
  tools: unknown[];
  toolChoice: unknown;
  format: unknown;
  temperature: number | null;
  topP: number | null;
  maxOutputTokens: number | null;
  metadata: Record<string, string>;
}

export const responseIdOf = (id: number) => `resp_${id}`;
export const messageIdOf = (id: number) => `msg_${id}`;
const functionCallIdOf = (id: number, index: number) => `fc_${id}_${index}`;

const MARKER = /\[\s*\d+(?:\s*,\s*\d+)*\s*\]/g;

/** The passages the text cites, each at its first marker. */
function annotationsOf(answer: Answer): OutputTextPart['annotations'] {
  const firstAt = new Map<number, number>();
  for (const match of answer.text.matchAll(MARKER)) {
    for (const number of (match[0].match(/\d+/g) ?? []).map(Number)) if (!firstAt.has(number)) firstAt.set(number, match.index);
  }
  return answer.citations.map((citation) => ({
    type: 'file_citation' as const,
    file_id: `document-${citation.document_id}`,
    filename: citation.source,
    index: firstAt.get(citation.number) ?? answer.text.length,
  }));
}

const itemStatusOf = (answer: Answer) => (answer.status === 'blocked' || answer.finishReason === 'length' ? 'incomplete' : 'completed');

export function outputTextOf(answer: Answer): OutputTextPart {
  return { type: 'output_text', text: answer.text, annotations: annotationsOf(answer), logprobs: [] };
}

/** The message item: there is one unless the answer is only calls of the client's tools. */
export function messageItemOf(answer: Answer & { id: number }): MessageOutputItem | undefined {
  if (answer.text === '' && clientCallsOf(answer).length > 0) return undefined;
  return { type: 'message', id: messageIdOf(answer.id), role: 'assistant', status: itemStatusOf(answer), content: [outputTextOf(answer)] };
}

export function functionCallItemsOf(answer: Answer & { id: number }): FunctionCallOutputItem[] {
  return clientCallsOf(answer).map((call, index) => ({
    type: 'function_call',
    id: functionCallIdOf(answer.id, index),
    call_id: call.id,
    name: call.name,
    arguments: argumentsText(call.input),
    status: 'completed',
  }));
}

/** The response object before its answer: in progress, no output. */
export function responseInProgress(id: number, createdAt: number, echo: ResponseEcho): ResponseObject {
  return {
    id: responseIdOf(id),
    object: 'response',
    created_at: createdAt,
    status: 'in_progress',
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: echo.maxOutputTokens,
    model: echo.model,
    output: [],
    parallel_tool_calls: true,
    previous_response_id: echo.previousResponseId,
    temperature: echo.temperature,
    top_p: echo.topP,
    tool_choice: echo.toolChoice,
    tools: echo.tools,
    text: { format: echo.format },
    truncation: 'auto',
    usage: null,
    metadata: echo.metadata,
    store: true,
    agent_response_id: id,
    citations: [],
  };
}

/** The response object of an answer that has ended. */
export function presentResponse(answered: Answer, echo: ResponseEcho): ResponseObject {
  const answer = asRecorded(answered);
  const message = messageItemOf(answer);
  const incomplete = answer.status === 'blocked' ? 'content_filter' : answer.finishReason === 'length' ? 'max_output_tokens' : null;
  return {
    ...responseInProgress(answer.id, unixSeconds(answer.askedOn), echo),
    status: answer.status === 'failed' ? 'failed' : incomplete ? 'incomplete' : 'completed',
    error: answer.status === 'failed' ? { code: 'server_error', message: answer.error ?? 'The answer failed' } : null,
    incomplete_details: incomplete ? { reason: incomplete } : null,
    output: [...(message ? [message] : []), ...functionCallItemsOf(answer)],
    usage: {
      input_tokens: answer.tokens.prompt,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: answer.tokens.completion,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: answer.tokens.prompt + answer.tokens.completion,
    },
    citations: answer.citations,
  };
}

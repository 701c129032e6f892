// The Responses API's input as the conversation the OpenAI doors share (openai-conversation.ts): a
// string is the question; a list of items holds messages (text parts only), function_call items (the
// assistant's calls of the client's tools) and function_call_output items (their results). Whatever
// this server cannot honour is a 400 naming the field: other item and content types (images, files,
// reasoning, item references, OpenAI's built-in tools' calls), background answers, stored prompts and
// conversations of OpenAI's own, include.
import { BadRequest } from '../../errors.js';
import { parsedArguments, type OpenAiMessage } from './openai-conversation.js';
import type { ResponsesInput, ResponsesInputItem } from './openai-responses.schemas.js';

const TEXT_PARTS = new Set(['input_text', 'output_text', 'text']);
const ROLES = new Set(['user', 'assistant', 'system', 'developer']);

function textOf(content: ResponsesInputItem['content'], pointer: string): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part, index) => {
      if (!TEXT_PARTS.has(part.type) || part.text === undefined) {
        throw new BadRequest('Only text content is supported', [{ pointer: `${pointer}/${index}`, message: `a ${part.type} part cannot be read` }]);
      }
      return part.text;
    })
    .join('\n');
}

function required(value: string | undefined, pointer: string, what: string): string {
  if (value === undefined || value === '') throw new BadRequest(`An input item of this type needs its ${what}`, [{ pointer, message: `has no ${what}` }]);
  return value;
}

/** The input as the conversation's messages; consecutive function_call items make one assistant message. */
export function responsesMessagesOf(input: ResponsesInput['input']): OpenAiMessage[] {
  if (typeof input === 'string') return [{ role: 'user', text: input, pointer: '/body/input' }];
  const messages: OpenAiMessage[] = [];
  input.forEach((item, index) => {
    const pointer = `/body/input/${index}`;
    const type = item.type ?? 'message';
    if (type === 'message') {
      const role = item.role ?? '';
      if (!ROLES.has(role)) throw new BadRequest(`A message’s role is user, assistant, system or developer, not ${role || 'none'}`, [{ pointer: `${pointer}/role`, message: 'is not a known role' }]);
      messages.push({ role: role as OpenAiMessage['role'], text: textOf(item.content, `${pointer}/content`), pointer });
    } else if (type === 'function_call') {
      const call = { id: required(item.call_id, pointer, 'call_id'), name: required(item.name, pointer, 'name'), arguments: parsedArguments(item.arguments ?? '') };
      const last = messages.at(-1);
      if (last?.role === 'assistant' && last.toolCalls && last.text === '') last.toolCalls.push(call);
      else messages.push({ role: 'assistant', text: '', toolCalls: [call], pointer });
    } else if (type === 'function_call_output') {
      const output = item.output;
      messages.push({ role: 'tool', toolCallId: required(item.call_id, pointer, 'call_id'), text: typeof output === 'string' ? output : textOf(output, `${pointer}/output`), pointer });
    } else {
      throw new BadRequest(`Input items of type ${type} are not supported: messages, function_call and function_call_output`, [{ pointer: `${pointer}/type`, message: 'is not supported' }]);
    }
  });
  return messages;
}

/** Refuses the request's fields that cannot be honoured. */
export function refuseUnsupported(body: ResponsesInput & Record<string, unknown>): void {
  const refuse = (field: string, message: string) => {
    throw new BadRequest(message, [{ pointer: `/body/${field}`, message: 'cannot be honoured' }]);
  };
  if (body.background === true) refuse('background', 'Background responses are not supported: ask with stream: true to read the answer as it is written');
  if (body.conversation !== undefined && body.conversation !== null) refuse('conversation', 'OpenAI conversations are not kept here: continue with previous_response_id');
  if (body.prompt !== undefined && body.prompt !== null) refuse('prompt', 'Stored prompts are not supported: the agent’s own instructions govern it');
  if (Array.isArray(body.include) && body.include.length > 0) refuse('include', 'include is not supported: the response carries its citations as annotations and in citations');
}

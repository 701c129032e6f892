// An OpenAI conversation as the agent runtime takes it, from chat completions' messages or the
// Responses API's input items (openai-responses-input.ts): the last user message is the question,
// the user and assistant messages before it the turns so far, and what follows it — the assistant's
// calls of the client's own tools and the results the client sends back — the steps the model
// continues from. System and developer messages are not passed on (the hosted agent's own
// instructions govern it, whatever the client says); earlier tool exchanges are left out of the turns,
// whose answers say what came of them.
import { BadRequest } from '../../errors.js';
import type { ChatMessage, ModelToolCall } from '../../providers/chat/chat-model.js';
import type { Turn } from '../runtime/prompt.js';
import type { ChatCompletionInput } from './openai.schemas.js';

/** One message of an OpenAI conversation, whichever door it came through. */
export interface OpenAiMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  text: string;
  /** An assistant's calls of the client's tools. */
  toolCalls?: ModelToolCall[];
  /** A tool message: the call it answers. */
  toolCallId?: string;
  /** Where it is in the body, for the pointer of a refusal. */
  pointer: string;
}

export interface OpenAiQuestion {
  query: string;
  /** Oldest first. */
  turns: Turn[];
  /** The calls and results after the question, in order; empty for a new question. */
  continuation: ChatMessage[];
}

/** A call's arguments as the runtime keeps them: parsed JSON, or the text as it is where it is not JSON. */
export function parsedArguments(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

type ChatMessageInput = ChatCompletionInput['messages'][number];

/** A chat message's text: a string, or its text parts joined; other parts (images, audio) are refused. */
function textOf(message: ChatMessageInput, pointer: string): string {
  const content = message.content;
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part, partIndex) => {
      if (!('text' in part) || part.type !== 'text') {
        throw new BadRequest('Only text content is supported', [{ pointer: `${pointer}/content/${partIndex}`, message: `a ${part.type} part cannot be read` }]);
      }
      return part.text;
    })
    .join('\n');
}

/** Chat completions' messages as the conversation's. */
export function chatMessagesOf(messages: ChatMessageInput[]): OpenAiMessage[] {
  return messages.map((message, index) => {
    const pointer = `/body/messages/${index}`;
    const calls = message.role === 'assistant' ? (message.tool_calls ?? []) : [];
    if (message.role === 'tool' && !message.tool_call_id) throw new BadRequest('A tool message names the call it answers in tool_call_id', [{ pointer, message: 'has no tool_call_id' }]);
    return {
      role: message.role as OpenAiMessage['role'],
      text: textOf(message, pointer),
      ...(calls.length > 0 ? { toolCalls: calls.map((call) => ({ id: call.id, name: call.function.name, arguments: parsedArguments(call.function.arguments) })) } : {}),
      ...(message.role === 'tool' ? { toolCallId: message.tool_call_id! } : {}),
      pointer,
    };
  });
}

/** The steps after the question: calls of the client's tools, each answered by a result. */
function continuationOf(after: OpenAiMessage[]): ChatMessage[] {
  const calls = new Map<string, string>();
  const answered = new Set<string>();
  const steps: ChatMessage[] = [];
  for (const message of after) {
    if (message.role === 'assistant' && message.toolCalls) {
      for (const call of message.toolCalls) calls.set(call.id, call.name);
      steps.push({ role: 'assistant', content: message.text, toolCalls: message.toolCalls });
    } else if (message.role === 'tool') {
      const name = calls.get(message.toolCallId!);
      if (name === undefined) throw new BadRequest(`No tool call with the id ${message.toolCallId} comes before this result`, [{ pointer: message.pointer, message: 'answers no call' }]);
      answered.add(message.toolCallId!);
      steps.push({ role: 'tool', toolCallId: message.toolCallId!, toolName: name, content: message.text });
    } else if (message.role === 'assistant') {
      throw new BadRequest('The last message must be the user’s question, or the results of the tools called after it', [{ pointer: message.pointer, message: 'an answer after the question' }]);
    }
  }
  const unanswered = [...calls.keys()].filter((id) => !answered.has(id));
  if (unanswered.length > 0) {
    const last = after.at(-1)!;
    throw new BadRequest(`No tool output found for the call ${unanswered[0]}: send each call’s result`, [{ pointer: last.pointer, message: 'a tool call has no result' }]);
  }
  return steps;
}

/**
 * The question, the turns before it and the steps after it.
 * @param field the body field of the conversation (the pointer of a conversation with no question)
 */
export function questionOf(messages: OpenAiMessage[], field: string): OpenAiQuestion {
  const questionIndex = messages.findLastIndex((message) => message.role === 'user');
  const question = messages[questionIndex];
  const query = question ? question.text.trim() : '';
  if (question === undefined || query === '') {
    const pointer = question?.pointer ?? messages.at(-1)?.pointer ?? field;
    throw new BadRequest('The conversation must end with the user’s question, with text (or the results of the tools called after it)', [{ pointer, message: 'is not a user message with text' }]);
  }
  const continuation = continuationOf(messages.slice(questionIndex + 1));
  const turns: Turn[] = [];
  let asked: string[] = [];
  for (const message of messages.slice(0, questionIndex)) {
    if (message.role === 'user') asked.push(message.text);
    if (message.role === 'assistant' && !message.toolCalls && asked.length > 0) {
      turns.push({ query: asked.join('\n'), answer: message.text });
      asked = [];
    }
  }
  // A question the conversation never had answered still says what the user was after.
  const unanswered = asked.join('\n');
  return { query: unanswered === '' ? query : `${unanswered}\n${query}`, turns, continuation };
}

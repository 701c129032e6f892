// An OpenAI conversation as the agent runtime takes it: the last user message is the question, the
// user and assistant messages before it the turns so far. System and developer messages are not
// passed on (the hosted agent's own instructions govern it, whatever the client says), nor are tool
// messages (the agent calls its own tools).
import { BadRequest } from '../../errors.js';
import type { Turn } from '../runtime/prompt.js';
import type { ChatCompletionInput } from './openai.schemas.js';

type Message = ChatCompletionInput['messages'][number];

/** A message's text: a string, or its text parts joined; other parts (images, audio) are refused. */
function textOf(message: Message, index: number): string {
  const content = message.content;
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part, partIndex) => {
      if (!('text' in part) || part.type !== 'text') {
        throw new BadRequest('Only text content is supported', [{ pointer: `/body/messages/${index}/content/${partIndex}`, message: `a ${part.type} part cannot be read` }]);
      }
      return part.text;
    })
    .join('\n');
}

export interface OpenAiQuestion {
  query: string;
  /** Oldest first. */
  turns: Turn[];
}

export function questionOf(messages: Message[]): OpenAiQuestion {
  const lastIndex = messages.length - 1;
  const last = messages[lastIndex]!;
  const query = last.role === 'user' ? textOf(last, lastIndex).trim() : '';
  if (query === '') {
    throw new BadRequest('The last message must be the user’s question, with text', [{ pointer: `/body/messages/${lastIndex}`, message: 'is not a user message with text' }]);
  }
  const turns: Turn[] = [];
  let asked: string[] = [];
  messages.slice(0, lastIndex).forEach((message, index) => {
    if (message.role === 'user') asked.push(textOf(message, index));
    if (message.role === 'assistant' && asked.length > 0) {
      turns.push({ query: asked.join('\n'), answer: textOf(message, index) });
      asked = [];
    }
  });
  // A question the conversation never had answered still says what the user was after.
  const unanswered = asked.join('\n');
  return { query: unanswered === '' ? query : `${unanswered}\n${query}`, turns };
}

// Timed Server-Sent Events: the events of a streamed answer parsed as they arrive, with the moment
// the first piece of content came (the first `delta` of an ask, the first chunk with text of a
// chat completion), which is what a user waiting for an answer sees.
import { timedRequest, type TimedRequest, type TimedResponse } from './http-timing.js';

export interface SseEvent {
  /** The `event:` name; `message` when there is none (OpenAI's streams). */
  event: string;
  /** The `data:` lines joined. */
  data: string;
}

export interface TimedEventStream extends TimedResponse {
  events: SseEvent[];
  /** From sending the request to the arrival of the first event `isContent` accepts (NaN if none). */
  firstContentMs: number;
}

function parseBlock(block: string): SseEvent {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return { event, data: data.join('\n') };
}

export async function timedEventStream(url: string, options: TimedRequest & { isContent: (event: SseEvent) => boolean }): Promise<TimedEventStream> {
  const events: SseEvent[] = [];
  let pending = '';
  let firstContentMs = Number.NaN;
  const response = await timedRequest(url, {
    ...options,
    onData: (chunk, elapsedMs) => {
      pending += chunk.toString('utf8');
      let end: number;
      while ((end = pending.indexOf('\n\n')) >= 0) {
        const event = parseBlock(pending.slice(0, end));
        pending = pending.slice(end + 2);
        events.push(event);
        if (Number.isNaN(firstContentMs) && options.isContent(event)) firstContentMs = elapsedMs;
      }
    },
  });
  return { ...response, events, firstContentMs };
}

/** The first event of an ask that carries answer text. */
export const isAskDelta = (event: SseEvent) => event.event === 'delta';

/** The first chunk of a chat completion that carries answer text. */
export function isCompletionText(event: SseEvent): boolean {
  if (event.data === '[DONE]') return false;
  const parsed = JSON.parse(event.data) as { choices?: { delta?: { content?: string | null } }[] };
  return (parsed.choices?.[0]?.delta?.content ?? '') !== '';
}

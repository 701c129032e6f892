// The Responses API's stream (stream: true): OpenAI's event names, each event's data carrying its
// `type` and a `sequence_number` from 0, written by the one SSE writer. The order is OpenAI's:
// response.created and response.in_progress once the question is recorded; the message item and its
// output_text part opened at the first piece of text, then a response.output_text.delta a piece;
// once the answer ends, the text's .done events, each call of the client's tools as a function_call
// item (added, its arguments, done), and response.completed (response.incomplete when cut or blocked).
// A failed model ends the stream with response.failed; a fault of the server with an error event.
import type { EventStreamWriter } from '../../http/server-sent-events.js';
import { asRecorded, type Answer } from '../runtime/answer.js';
import { functionCallItemsOf, messageIdOf, messageItemOf, outputTextOf, presentResponse, responseInProgress, type ResponseEcho } from './openai-responses.presenter.js';
import type { ResponseObject } from './openai-responses.schemas.js';

export class ResponseEvents {
  private sequence = 0;
  private response: ResponseObject | undefined;
  private messageOpen = false;

  constructor(
    private readonly events: EventStreamWriter,
    private readonly echo: ResponseEcho,
    private readonly createdAt: number,
  ) {}

  private send(type: string, fields: Record<string, unknown>): void {
    this.events.send(type, { type, sequence_number: this.sequence++, ...fields });
  }

  /** The question is recorded: the response exists, in progress. */
  created(id: number): void {
    this.response = responseInProgress(id, this.createdAt, this.echo);
    this.send('response.created', { response: this.response });
    this.send('response.in_progress', { response: this.response });
  }

  private openMessage(): void {
    if (this.messageOpen || !this.response) return;
    this.messageOpen = true;
    const itemId = messageIdOf(this.response.agent_response_id);
    this.send('response.output_item.added', { output_index: 0, item: { type: 'message', id: itemId, role: 'assistant', status: 'in_progress', content: [] } });
    this.send('response.content_part.added', { item_id: itemId, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [], logprobs: [] } });
  }

  delta(text: string): void {
    if (!this.response) return;
    this.openMessage();
    this.send('response.output_text.delta', { item_id: messageIdOf(this.response.agent_response_id), output_index: 0, content_index: 0, delta: text, logprobs: [] });
  }

  /** The answer has ended: the items closed, then the whole response. */
  finished(answered: Answer): void {
    const answer = asRecorded(answered);
    const message = messageItemOf(answer);
    if (message) {
      this.openMessage();
      const part = outputTextOf(answer);
      this.send('response.output_text.done', { item_id: message.id, output_index: 0, content_index: 0, text: part.text, logprobs: [] });
      this.send('response.content_part.done', { item_id: message.id, output_index: 0, content_index: 0, part });
      this.send('response.output_item.done', { output_index: 0, item: message });
    }
    for (const [index, item] of functionCallItemsOf(answer).entries()) {
      const outputIndex = (message ? 1 : 0) + index;
      this.send('response.output_item.added', { output_index: outputIndex, item: { ...item, arguments: '', status: 'in_progress' } });
      this.send('response.function_call_arguments.delta', { item_id: item.id, output_index: outputIndex, delta: item.arguments });
      this.send('response.function_call_arguments.done', { item_id: item.id, output_index: outputIndex, name: item.name, arguments: item.arguments });
      this.send('response.output_item.done', { output_index: outputIndex, item });
    }
    const response = { ...presentResponse(answer, this.echo), created_at: this.createdAt };
    this.send(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response });
  }

  /** The model failed: the response as failed, with the error. */
  failed(answered: Answer, error: { code: string; message: string }): void {
    const answer = asRecorded(answered);
    const response: ResponseObject = { ...presentResponse(answer, this.echo), created_at: this.createdAt, status: 'failed', error };
    this.send('response.failed', { response });
  }

  /** A fault of the server: OpenAI's error event. */
  error(code: string, message: string): void {
    this.send('error', { code, message, param: null });
  }
}

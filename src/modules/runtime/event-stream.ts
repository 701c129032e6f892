// Server-Sent Events as the ask writes them: each event with an increasing id, a name and one line
// of JSON data. The body is a stream the route hands to Fastify; writes after the client has gone
// are dropped, so the ask can run to its end and record what happened.
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';

export class EventStreamWriter {
  readonly body = new PassThrough();
  private nextId = 1;

  send(event: string, data: unknown): void {
    if (this.body.destroyed || this.body.writableEnded) return;
    this.body.write(`id: ${this.nextId++}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** An event with data alone, no id or name, as OpenAI's streams send them; strings are sent as they are ([DONE]). */
  sendData(data: unknown): void {
    if (this.body.destroyed || this.body.writableEnded) return;
    this.body.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  }

  end(): void {
    if (!this.body.destroyed && !this.body.writableEnded) this.body.end();
  }
}

/** Answers 200 with the writer's events; proxies are told not to buffer them. */
export function sendEventStream(reply: FastifyReply, events: EventStreamWriter) {
  return reply
    .code(200)
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache, no-transform')
    .header('x-accel-buffering', 'no')
    .send(events.body);
}

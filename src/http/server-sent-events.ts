// Server-Sent Events as every stream of the server writes them (docs/api.md, "Event streams"; their
// OpenAPI description is event-streams.ts): an event is its id, its name and one line of JSON data,
// or data alone as OpenAI's streams send it. The body is a stream the route hands to Fastify, which
// destroys it when the client goes; writes after that are dropped, so that the work behind a stream
// (an ask) can run to its end and record what happened.
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';

export class EventStreamWriter {
  readonly body = new PassThrough();
  /** Ids the stream counts itself, for events sent without one. */
  private nextId = 1;

  /** False once the stream has ended or the client has gone. */
  get isOpen(): boolean {
    return !this.body.destroyed && !this.body.writableEnded;
  }

  /**
   * An event with its name and JSON data, under the id given (a stream resumable by Last-Event-ID
   * gives its records' ids) or the stream's next one. False when the client has not yet taken what
   * was written: a writer that can wait should wait for `drained`.
   */
  send(event: string, data: unknown, id: number = this.nextId++): boolean {
    return this.write(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** An event with data alone, no id or name, as OpenAI's streams send them; strings are sent as they are ([DONE]). */
  sendData(data: unknown): boolean {
    return this.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  }

  /** How long a client waits before it reconnects, once the connection is lost. */
  retryAfter(ms: number): boolean {
    return this.write(`retry: ${ms}\n\n`);
  }

  /** A comment, which clients ignore: keeps proxies from closing a connection that carries no event for a while. */
  keepAlive(): boolean {
    return this.write(`: keep-alive\n\n`);
  }

  /** Resolves once the client has taken what was written, or has gone. */
  drained(): Promise<void> {
    if (!this.isOpen || !this.body.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.body.off('drain', done).off('close', done);
        resolve();
      };
      this.body.once('drain', done).once('close', done);
    });
  }

  /** Calls back once, when the stream ends or the client goes. */
  onClose(callback: () => void): void {
    if (this.body.closed) callback();
    else this.body.once('close', callback);
  }

  end(): void {
    if (this.isOpen) this.body.end();
  }

  /** Ends the stream on a failure: Fastify logs the error and closes the connection, and the client reconnects. */
  fail(error: unknown): void {
    if (!this.body.destroyed) this.body.destroy(error instanceof Error ? error : new Error(String(error)));
  }

  private write(text: string): boolean {
    if (!this.isOpen) return true;
    return this.body.write(text);
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

// Server-Sent Events as the ask writes them: each event with an increasing id, a name and one line
// of JSON data. The body is a stream the route hands to Fastify; writes after the client has gone
// are dropped, so the ask can run to its end and record what happened.
import { PassThrough } from 'node:stream';

export class EventStreamWriter {
  readonly body = new PassThrough();
  private nextId = 1;

  send(event: string, data: unknown): void {
    if (this.body.destroyed || this.body.writableEnded) return;
    this.body.write(`id: ${this.nextId++}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    if (!this.body.destroyed && !this.body.writableEnded) this.body.end();
  }
}

// The requests this process is answering now, for the shutdown log: what a stop waits for, and what
// a grace that runs out cuts. A request counts from its arrival until its response closes, whether
// it was sent to the end or abandoned by the client.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { redactUrl } from '../http/log-redaction.js';

export interface OpenRequest {
  id: string;
  method: string;
  /** As the request log shows it: credentials in the query redacted. */
  url: string;
  /** Since the request arrived. */
  seconds: number;
  /** Answering with Server-Sent Events (an answer streaming, document events). */
  streaming: boolean;
}

export class RequestsInFlight {
  private readonly open = new Map<FastifyRequest, FastifyReply>();

  track(request: FastifyRequest, reply: FastifyReply): void {
    this.open.set(request, reply);
    reply.raw.once('close', () => this.open.delete(request));
  }

  get size(): number {
    return this.open.size;
  }

  list(): OpenRequest[] {
    return [...this.open].map(([request, reply]) => ({
      id: request.id,
      method: request.method,
      url: redactUrl(request.url),
      seconds: Math.round(reply.elapsedTime / 100) / 10,
      streaming: String(reply.getHeader('content-type') ?? '').startsWith('text/event-stream'),
    }));
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The requests being answered, for the shutdown log. */
    requestsInFlight: RequestsInFlight;
  }
}

export function installRequestsInFlight(app: FastifyInstance): void {
  const requests = new RequestsInFlight();
  app.decorate('requestsInFlight', requests);
  // A callback, as the other hooks of every request: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    requests.track(request, reply);
    done();
  });
}

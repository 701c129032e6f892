// A request refused before its body was read whole (an upload over the file or part limits, a
// credential refused before the upload is read) leaves the rest of that body on the connection. Node
// keeps such a connection open but never reads it again, so the next request on it would hang. The
// answer says `Connection: close`, so the client opens a fresh connection, and what still arrives of
// the body is read and dropped until then, so that the close is orderly rather than a reset that
// could take the answer with it.
import type { FastifyInstance } from 'fastify';

export function installUnreadBodyClose(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const raw = request.raw;
    if (!raw.complete && !raw.destroyed) {
      reply.header('connection', 'close');
      raw.unpipe();
      raw.removeAllListeners('data');
      raw.resume();
    }
    done(null, payload);
  });
}

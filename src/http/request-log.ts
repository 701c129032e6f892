// The log as a person or a collector reads it: JSON lines for collectors, readable lines on a
// terminal (LOG_FORMAT), and one line per request (method, path, status, time) instead of Fastify's
// two, written when the response has gone. URLs are logged redacted (log-redaction.ts).
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import pinoPretty from 'pino-pretty';
import type { Config } from '../config.js';
import { redactUrl, serializeRequest } from './log-redaction.js';

/** The levels at which the request line (info) is written. */
const WRITES_INFO = new Set(['trace', 'debug', 'info']);

/** Fields of the request line that its message already shows; the pretty format leaves them out. */
const SHOWN_IN_MESSAGE = ['method', 'url', 'statusCode', 'responseTime'];

export function loggerOptions(config: Pick<Config, 'logLevel' | 'logFormat'>): FastifyServerOptions['logger'] {
  const options = { level: config.logLevel, serializers: { req: serializeRequest } };
  if (config.logFormat === 'json') return options;
  // Synchronous, in this thread: a line is on the terminal before the next one is written, and the
  // last lines are not lost when the process exits.
  const stream = pinoPretty({
    sync: true,
    colorize: process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: ['pid', 'hostname', ...SHOWN_IN_MESSAGE].join(','),
    singleLine: true,
  });
  return { ...options, stream };
}

/** Use with `disableRequestLogging: true`: one line per request, once it is answered. */
export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    // At a level above info the line is not written; neither is it made.
    if (!WRITES_INFO.has(request.log.level)) return done();
    const url = redactUrl(request.url);
    const responseTime = Math.round(reply.elapsedTime * 10) / 10;
    request.log.info(
      { method: request.method, url, statusCode: reply.statusCode, responseTime, remoteAddress: request.ip },
      `${request.method} ${url} ${reply.statusCode} ${responseTime} ms`,
    );
    done();
  });
}

import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Envelope, List, responses } from '../../http/schemas.js';
import { now } from '../../clock.js';
import { chatLogCsv, chatLogJson } from './chat-logs.export.js';
import { CHAT_LOG_COLUMNS, ChatLogQuery, ChatLogRowSchema } from './chat-logs.schemas.js';

const ChatLogEnvelope = Envelope(List(ChatLogRowSchema));

/** CSV when format says so, or when format is absent and the client accepts text/csv. */
const wantsCsv = (format: string | undefined, accept: string | undefined) => format === 'csv' || (format === undefined && /\btext\/csv\b/i.test(accept ?? ''));

export const chatLogsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { chatLogs } = app.services;

  app.get(
    '/api/v2/chat-logs',
    {
      schema: {
        operationId: 'exportChatLogs',
        tags: ['chat'],
        summary: 'Chat logs across threads for an agent, project or user and a time range; JSON or CSV',
        description:
          'One row per response, oldest first, streamed. Owners and admins read the whole organization; team leads their own threads and those of ' +
          'their teams’ agents; anyone else only their own (user_id naming someone else: 403). from is inclusive, to exclusive. ' +
          'format=csv or Accept: text/csv answers CSV (RFC 4180, a header row, as an attachment); a cell beginning with =, +, -, @, a tab or a ' +
          'carriage return is prefixed with an apostrophe so that spreadsheets do not run it as a formula.',
        querystring: ChatLogQuery,
        headers: Type.Object({ accept: Type.Optional(Type.String()) }),
        response: responses({ 200: ChatLogEnvelope }, [403, 404]),
        'x-document': {
          responseContent: {
            200: {
              'application/json': { schema: ChatLogEnvelope },
              'text/csv': {
                schema: Type.String({ description: `A header row (${CHAT_LOG_COLUMNS.join(', ')}) and one row per response` }),
                example:
                  `${CHAT_LOG_COLUMNS.join(',')}\r\n` +
                  "12,31,7,HR assistant,ana@example.com,2026-11-23T09:30:00.000Z,How long is parental leave?,Sixteen weeks [1].,completed,812,41,853,0.00014,1320,gpt-4o-mini,1,2,0,1,5\r\n",
              },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const batches = await chatLogs.open(request.actor, request.query);
      if (wantsCsv(request.query.format, request.headers.accept)) {
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="chat-logs-${now().slice(0, 10)}.csv"`)
          .send(Readable.from(chatLogCsv(batches), { objectMode: false }));
      }
      return reply.type('application/json; charset=utf-8').send(Readable.from(chatLogJson(batches), { objectMode: false }));
    },
  );
};

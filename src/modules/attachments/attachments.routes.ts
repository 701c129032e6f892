import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { UnsupportedMediaType } from '../../errors.js';
import { Deleted, Envelope, IdParams, ok, responses } from '../../http/schemas.js';
import { readMultipart } from '../documents/incoming.js';
import type { ReadableFile } from './attachment-text.js';
import { AttachmentList, AttachmentUploadContent, ThreadAttachmentParams } from './attachments.schemas.js';

const tags = ['chat'];
const ThreadParams = IdParams('thread_id');

/** The files of a multipart upload, read within the upload limits of document uploads. */
async function readFiles(request: FastifyRequest, fileLimitBytes: number): Promise<ReadableFile[]> {
  if (!request.isMultipart()) throw new UnsupportedMediaType('Send the files as multipart/form-data, one part per file');
  const { files } = await readMultipart(request, fileLimitBytes);
  return files.map((file) => ({ filename: file.source, bytes: file.bytes }));
}

export const attachmentsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { attachments } = app.services;

  app.post(
    '/api/v2/threads/:thread_id/attachments',
    {
      schema: {
        operationId: 'uploadThreadAttachments',
        tags,
        summary: 'Give files to a chat thread, for its agent to read',
        description:
          'multipart/form-data, one part per file (at most LIMIT_UPLOAD_FILES, each at most LIMIT_UPLOAD_FILE_BYTES). ' +
          'By the thread’s owner only. The text is extracted now, as documents’ is; a file that cannot be read (415), holds no text (400) ' +
          'or is too large to read (413) refuses the whole request and nothing is kept. A thread holds at most 50 attachments.',
        params: ThreadParams,
        'x-document': { requestContent: AttachmentUploadContent },
        response: responses({ 201: Envelope(AttachmentList) }, [403, 404, 415]),
      },
    },
    async (request, reply) => {
      const items = await attachments.upload(request.actor, request.params.thread_id, () => readFiles(request, app.config.limits.uploadFileBytes));
      return reply.code(201).send(ok(`${items.length} attachment(s) added`, { items }));
    },
  );

  app.get(
    '/api/v2/threads/:thread_id/attachments',
    {
      schema: {
        operationId: 'listThreadAttachments',
        tags,
        summary: 'The files given in a chat thread, oldest first',
        description: 'Seen by whoever may see the thread. The text is not listed: the agent reads it through an attachment tool.',
        params: ThreadParams,
        response: responses({ 200: Envelope(AttachmentList) }, [404]),
      },
    },
    async (request) => ok('Attachments', { items: await attachments.list(request.actor, request.params.thread_id) }),
  );

  app.delete(
    '/api/v2/threads/:thread_id/attachments/:attachment_id',
    {
      schema: {
        operationId: 'deleteThreadAttachment',
        tags,
        summary: 'Remove a file from a chat thread',
        description: 'By the thread’s owner, owners and admins. The agent no longer sees it.',
        params: ThreadAttachmentParams,
        response: responses({ 200: Envelope(Deleted) }, [403, 404]),
      },
    },
    async (request) => {
      await attachments.delete(request.actor, request.params.thread_id, request.params.attachment_id);
      return ok('Attachment removed', { id: request.params.attachment_id });
    },
  );
};

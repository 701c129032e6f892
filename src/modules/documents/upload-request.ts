// An upload as a request brings it, for both generations: multipart files with their fields, or a
// JSON text or URL document. The documents service checks the caller's permission before it asks
// for the batch, so nothing is read or fetched for a caller who may not upload.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequest } from '../../errors.js';
import type { Actor } from '../auth/actor.js';
import type { OnDuplicate, UploadJsonInput } from './documents.schemas.js';
import type { UploadBatch } from './documents.service.js';
import { readMultipart } from './incoming.js';

const ON_DUPLICATE = ['reject', 'skip', 'replace', 'keep_both'];

/** Multipart fields arrive as text: "tags" comma-separated, "on_duplicate" one of the choices. */
function multipartOptions(fields: Record<string, string>): { tags: string[]; onDuplicate: OnDuplicate } {
  const tagList = (fields.tags ?? '').split(',').map((tag) => tag.trim()).filter(Boolean);
  if (tagList.some((tag) => tag.length > 100) || tagList.length > 50) throw new BadRequest('At most 50 tags of at most 100 characters');
  const onDuplicate = fields.on_duplicate ?? 'reject';
  if (!ON_DUPLICATE.includes(onDuplicate)) {
    throw new BadRequest(`on_duplicate must be one of ${ON_DUPLICATE.join(', ')}`, [{ pointer: '/body/on_duplicate', message: 'is invalid' }]);
  }
  return { tags: [...new Set(tagList)], onDuplicate: onDuplicate as OnDuplicate };
}

async function readUpload(app: FastifyInstance, request: FastifyRequest): Promise<UploadBatch> {
  if (request.isMultipart()) {
    const { files, fields } = await readMultipart(request, app.config.limits.uploadFileBytes);
    return { incoming: files, ...multipartOptions(fields) };
  }
  const body = request.body as UploadJsonInput;
  const incoming = await app.services.documents.incomingFromJson(body);
  return { incoming: [incoming], tags: body.tags ?? [], onDuplicate: body.on_duplicate ?? 'reject' };
}

export function acceptUpload(app: FastifyInstance, request: FastifyRequest & { actor: Actor }, corpusId: number) {
  return app.services.documents.upload(request.actor, corpusId, () => readUpload(app, request));
}

// An upload as a request brings it, for both generations: multipart files with their fields, or a
// JSON text or URL document. Permission is checked before anything is read or fetched.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequest } from '../../errors.js';
import type { Actor } from '../auth/actor.js';
import type { OnDuplicate, UploadJsonInput } from './documents.schemas.js';
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

export async function acceptUpload(app: FastifyInstance, request: FastifyRequest & { actor: Actor }, corpusId: number) {
  const documents = app.services.documents;
  await app.services.corpora.requireCorpus(request.actor, corpusId, 'write');
  if (request.isMultipart()) {
    const { files, fields } = await readMultipart(request, app.config.limits.uploadFileBytes);
    return documents.upload(request.actor, corpusId, files, multipartOptions(fields));
  }
  const body = request.body as UploadJsonInput;
  const incoming = await documents.incomingFromJson(body);
  return documents.upload(request.actor, corpusId, [incoming], { tags: body.tags ?? [], onDuplicate: body.on_duplicate ?? 'reject' });
}

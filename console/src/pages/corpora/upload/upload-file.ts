// One file to a corpus as multipart/form-data, with the fraction of it sent so far.
import type { Schemas } from '../../../api/client';
import { ApiError } from '../../../api/errors';
import { postWithProgress } from '../../../api/upload';

export type OnDuplicate = 'reject' | 'skip' | 'replace' | 'keep_both';
export type UploadResult = Schemas['DocumentUploadResult'];

/**
 * Sends `file` to the corpus; `onProgress` gets the fraction of the body sent (0 to 1). The answer's
 * data on 201, else an ApiError with the server's message (409 when the corpus already holds the
 * same content and `onDuplicate` is reject).
 */
export async function uploadFile(corpusId: number, file: File, onDuplicate: OnDuplicate, onProgress: (fraction: number) => void): Promise<UploadResult> {
  const form = new FormData();
  form.append('on_duplicate', onDuplicate);
  form.append('file', file, file.name);
  const body = await postWithProgress(`/api/v2/corpora/${corpusId}/documents`, form, ({ loaded, total }) => {
    if (total > 0) onProgress(loaded / total);
  });
  if (typeof body !== 'object' || body === null || !('data' in body)) throw new ApiError('The server answered without the document it made.', 0);
  return body.data as UploadResult;
}

// One file to a corpus as multipart/form-data, through XMLHttpRequest because fetch cannot report
// how much of a request body has been sent. Same origin, so the session cookie goes with it; the
// CSRF header is added as the typed client adds it to every state-changing request.
import { csrfHeaders, reportSessionEnded, type Schemas } from '../../../api/client';
import { ApiError } from '../../../api/errors';

export type OnDuplicate = 'reject' | 'skip' | 'replace' | 'keep_both';
export type UploadResult = Schemas['DocumentUploadResult'];

interface Envelope {
  message?: unknown;
  data?: unknown;
  error?: { code?: string; details?: { pointer: string; message: string }[] };
}

function errorOfAnswer(status: number, body: Envelope | null): ApiError {
  if (body !== null && typeof body.message === 'string') return new ApiError(body.message, status, body.error?.code, body.error?.details ?? []);
  if (status === 0) return new ApiError('The server could not be reached. Check your connection and try again.', 0);
  return new ApiError(`The server answered ${status}`, status);
}

export interface UploadHandle {
  done: Promise<UploadResult>;
  abort(): void;
}

/**
 * Sends `file` to the corpus; `onProgress` gets the fraction of the body sent (0 to 1). The answer's
 * data on 201, else an ApiError with the server's message (409 when the corpus already holds the
 * same content and `onDuplicate` is reject).
 */
export function uploadFile(corpusId: number, file: File, onDuplicate: OnDuplicate, onProgress: (fraction: number) => void): UploadHandle {
  const request = new XMLHttpRequest();
  const done = new Promise<UploadResult>((resolve, reject) => {
    const form = new FormData();
    form.append('on_duplicate', onDuplicate);
    form.append('file', file, file.name);
    request.open('POST', `/api/v2/corpora/${corpusId}/documents`);
    request.responseType = 'json';
    for (const [name, value] of Object.entries(csrfHeaders())) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.upload.onload = () => onProgress(1);
    request.onload = () => {
      const body = (request.response ?? null) as Envelope | null;
      if (request.status >= 200 && request.status < 300 && body !== null && body.data !== undefined) {
        resolve(body.data as UploadResult);
        return;
      }
      if (request.status === 401) reportSessionEnded();
      reject(errorOfAnswer(request.status, body));
    };
    request.onerror = () => reject(errorOfAnswer(0, null));
    request.onabort = () => reject(new ApiError('The upload was cancelled.', 0));
    request.send(form);
  });
  return { done, abort: () => request.abort() };
}

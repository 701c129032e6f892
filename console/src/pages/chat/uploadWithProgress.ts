// A multipart upload with its progress: fetch cannot report an upload's progress, XMLHttpRequest can.
// Same origin, the session cookie, the CSRF header; a failure becomes ApiError with the server's message.
import { csrfHeaders, reportSessionEnded } from '../../api/client';
import { ApiError } from '../../api/errors';

export interface UploadProgress {
  loaded: number;
  total: number;
}

function errorOfXhr(xhr: XMLHttpRequest, body: unknown): ApiError {
  if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') {
    const code = 'error' in body && typeof body.error === 'object' && body.error !== null && 'code' in body.error && typeof body.error.code === 'string' ? body.error.code : undefined;
    return new ApiError(body.message, xhr.status, code);
  }
  return new ApiError(`The server answered ${xhr.status} ${xhr.statusText}`.trim(), xhr.status);
}

/** POSTs the form; resolves with the parsed JSON answer, rejects with ApiError. */
export function uploadWithProgress(url: string, form: FormData, onProgress: (progress: UploadProgress) => void, signal?: AbortSignal): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.responseType = 'json';
    for (const [name, value] of Object.entries(csrfHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : 0 });
    xhr.onload = () => {
      const body: unknown = xhr.response;
      if (xhr.status >= 200 && xhr.status < 300) return resolve(body);
      if (xhr.status === 401) reportSessionEnded();
      reject(errorOfXhr(xhr, body));
    };
    xhr.onerror = () => reject(new ApiError('The server could not be reached. Check your connection and try again.', 0));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
